/** The error thrown where the SDK's math panics or returns an error (`Int overflow`, `division by zero`, parse errors). */
export class MathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'MathError';
  }
}
