export declare const COMETBFT_VERSION: string;
export declare const COMETBFT_MODULE: string;
export declare const REPO_ROOT: string;
export declare function cometbftDir(version?: string): string;
export declare function cometbftBinPath(version?: string): string;
export declare function ensureCometbft(opts?: { version?: string; log?: (line: string) => void; lockTimeoutMs?: number }): Promise<string>;
export declare function findGo(): { go: string; version: string } | undefined;
export declare function binaryWorks(bin: string): boolean;
export declare function withBuildLock(dir: string, bin: string, o: { lockTimeoutMs: number; staleMs: number }, build: () => Promise<string>): Promise<string>;
