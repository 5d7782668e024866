/**
 * What the REST server serves besides the gateway routes: the explorer page (`/explorer/`, static files checked
 * in under the package's `explorer/` folder, no CDN, plus `/explorer/config.json`, the URLs of the public surfaces the page reads) when
 * app.toml's `[api] explorer` is on, and the wallet descriptions (`/keplr/chain-info.json`,
 * `/chain-registry/chain.json`, `/chain-registry/assetlist.json`) always. The page reads only the node's public
 * surfaces from the browser: REST, the CometBFT RPC websocket, the Ethereum JSON-RPC.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import type Koa from 'koa';
import { chainRegistryAssetList, chainRegistryChain, explorerConfig, keplrChainInfo, publicEndpoints, WALLET_JSON_PATHS } from './chain-info.js';
import type { ChainDescription } from './chain-info.js';

/**
 * The page's files: `explorer/` at the package root (like `proto/`), so that the same path holds from
 * `src/explorer/` (tests, `source` condition) and from `dist/explorer/` (the built package, which ships it).
 */
export const EXPLORER_STATIC_DIR = new URL('../../explorer/', import.meta.url).pathname;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json',
};

export interface ExplorerServeOptions {
  /** the chain as the node is configured (the wallet JSON and the page's config are built from it) */
  readonly chain: ChainDescription;
  /** serve the explorer page at `/explorer/` (app.toml `[api] explorer`) */
  readonly explorer: boolean;
  /** where the page's files are (default `EXPLORER_STATIC_DIR`) */
  readonly staticDir?: string;
}

interface StaticFile { readonly body: Buffer; readonly type: string }

function loadStatic(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  for (const name of readdirSync(dir)) {
    const type = TYPES[extname(name)];
    if (type) files.set(name, { body: readFileSync(join(dir, name)), type });
  }
  if (!files.has('index.html')) throw new Error(`explorer: no index.html in ${dir}`);
  return files;
}

/** The origin the client reached the REST server at (`http://localhost:1317`), from the request's Host header. */
function requestOrigin(ctx: Koa.Context): string {
  const host = ctx.host || 'localhost';
  try {
    return new URL(`${ctx.protocol}://${host}`).origin;
  } catch {
    return 'http://localhost';
  }
}

/**
 * A handler for GET/HEAD requests: true when it answered (an explorer file, the page's config, a wallet JSON),
 * false for every other path (the gateway's routes go on).
 */
export function createExplorerHandler(o: ExplorerServeOptions): (ctx: Koa.Context) => boolean {
  const files = o.explorer ? loadStatic(o.staticDir ?? EXPLORER_STATIC_DIR) : new Map<string, StaticFile>();
  const json = (ctx: Koa.Context, route: string, body: unknown, cors: boolean): true => {
    ctx.state.metricsRoute = `GET ${route}`;
    ctx.set('Content-Type', 'application/json');
    ctx.set('Cache-Control', 'no-cache');
    if (cors) ctx.set('Access-Control-Allow-Origin', '*');
    ctx.body = JSON.stringify(body, null, 2);
    return true;
  };
  return (ctx) => {
    const path = ctx.path;
    switch (path) {
      case WALLET_JSON_PATHS.keplr: return json(ctx, path, keplrChainInfo(o.chain, publicEndpoints(o.chain, requestOrigin(ctx))), true);
      case WALLET_JSON_PATHS.chainRegistry: return json(ctx, path, chainRegistryChain(o.chain, publicEndpoints(o.chain, requestOrigin(ctx))), true);
      case WALLET_JSON_PATHS.assetList: return json(ctx, path, chainRegistryAssetList(o.chain), true);
      default: break;
    }
    if (!o.explorer || (path !== '/explorer' && !path.startsWith('/explorer/'))) return false;
    if (path === '/explorer') {
      // relative asset URLs resolve under /explorer/
      ctx.state.metricsRoute = 'GET /explorer';
      ctx.status = 301;
      ctx.redirect('/explorer/');
      return true;
    }
    const name = path.slice('/explorer/'.length) || 'index.html';
    if (name === 'config.json') return json(ctx, '/explorer/config.json', explorerConfig(o.chain, publicEndpoints(o.chain, requestOrigin(ctx))), false);
    const file = files.get(name);
    if (!file) return false;
    ctx.state.metricsRoute = 'GET /explorer/*';
    ctx.set('Content-Type', file.type);
    ctx.set('Cache-Control', 'no-cache');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = file.body;
    return true;
  };
}
