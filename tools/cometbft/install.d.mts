export declare const COMETBFT_VERSION: string;
export declare const COMETBFT_MODULE: string;
export declare const REPO_ROOT: string;
export declare function cometbftDir(version?: string): string;
export declare function cometbftBinPath(version?: string): string;
export declare function ensureCometbft(opts?: { version?: string; log?: (line: string) => void; lockTimeoutMs?: number }): Promise<string>;
