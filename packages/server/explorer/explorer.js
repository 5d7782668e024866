/*
 * The block explorer page. It reads the node's public surfaces only, with the URLs of ./config.json:
 * REST (`/cosmos/...` routes, same origin), the CometBFT RPC over its websocket (live NewBlock and Tx events,
 * `blockchain` and `tx_search` for the first rows) and the Ethereum JSON-RPC (the Ethereum view of EVM txs).
 * Routes are in the URL fragment: #/, #/block/H, #/tx/HASH, #/account/ADDR, #/validators, #/validator/VALOPER,
 * #/proposals, #/proposal/ID, #/tokens, #/pools, #/wallet. Every text from the chain goes in as text, never HTML.
 */
(function () {
  'use strict';
  const L = window.ExplorerLib;
  const main = document.getElementById('main');
  const MAX_LIVE = 15;
  let cfg;
  let comet;
  const state = { blocks: [], txs: [], validators: undefined, tokens: undefined };

  // ---- DOM helpers ---------------------------------------------------------------------------------

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === undefined || v === null || v === false) continue;
      if (k === 'class') e.className = v;
      else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
      else e.setAttribute(k, v === true ? '' : String(v));
    }
    for (const k of kids.flat(Infinity)) {
      if (k === undefined || k === null || k === false) continue;
      e.append(k instanceof Node ? k : document.createTextNode(String(k)));
    }
    return e;
  }
  const link = (route, text, attrs) => el('a', Object.assign({ href: '#/' + route }, attrs), text);
  const short = (s, n) => (s.length > 2 * (n || 10) + 1 ? s.slice(0, n || 10) + '…' + s.slice(-6) : s);
  const mono = (text, attrs) => el('span', Object.assign({ class: 'mono' }, attrs), text);
  const card = (title, ...kids) => el('section', { class: 'card' }, title ? el('h2', null, title) : null, ...kids);
  /** A two-column table: rows of [label, value, id of the value cell]. */
  const kv = (rows, attrs) => el('table', Object.assign({ class: 'kv' }, attrs),
    rows.filter(Boolean).map(([k, v, id]) => el('tr', null, el('th', null, k), el('td', { id }, v))));
  const table = (headers, rows, attrs) => el('table', attrs, el('thead', null, el('tr', null, headers.map((h) => el('th', null, h)))), el('tbody', null, rows));
  const errorBox = (e) => el('div', { class: 'error', role: 'alert' }, e && e.message ? e.message : String(e));
  const time = (t) => (t ? new Date(t).toLocaleString() : '');
  const enc = encodeURIComponent;

  // ---- the public surfaces -------------------------------------------------------------------------

  async function rest(path) {
    const r = await fetch(cfg.rest + path, { headers: { accept: 'application/json' } });
    const text = await r.text();
    let body;
    try { body = JSON.parse(text); } catch (e) { body = { message: text.slice(0, 200) }; }
    if (!r.ok) {
      const err = new Error((body && body.message) || 'HTTP ' + r.status + ' for ' + path);
      err.status = r.status;
      throw err;
    }
    return body;
  }
  /** `fallback` when the route answers 404 (NotFound: no such account, no pools, ...). */
  async function restOr(path, fallback) {
    try { return await rest(path); } catch (e) { if (e.status === 404) return fallback; throw e; }
  }

  /**
   * Every item of a paginated list route (pages of 100, the gateway's maximum, following `next_key`), at most `max`;
   * `fallback` items when the route answers 404 (the liquidity module's "no pools").
   */
  async function restAll(path, listKey, max, fallback) {
    const out = [];
    let key = '';
    for (;;) {
      const sep = path.includes('?') ? '&' : '?';
      let r;
      try {
        r = await rest(path + sep + 'pagination.limit=100' + (key ? '&pagination.key=' + enc(key) : ''));
      } catch (e) {
        if (e.status === 404 && fallback) return fallback;
        throw e;
      }
      out.push(...(r[listKey] || []));
      key = r.pagination && r.pagination.next_key;
      if (!key || out.length >= (max || 1000)) return out;
    }
  }

  async function eth(method, params) {
    if (!cfg.jsonRpc) throw new Error('the Ethereum JSON-RPC is not enabled on this node');
    const r = await fetch(cfg.jsonRpc, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
    const body = await r.json();
    if (body.error) throw new Error(method + ': ' + body.error.message);
    return body.result;
  }

  /** The CometBFT RPC websocket: JSON-RPC calls and subscriptions, reconnecting (and resubscribing) when it drops. */
  class CometWs {
    constructor(url) {
      this.url = url;
      this.nextId = 1;
      this.pending = new Map();
      this.subs = new Map();
      this.waiters = [];
      this.connect();
    }
    connect() {
      const ws = new WebSocket(this.url);
      this.ws = ws;
      ws.onopen = () => {
        setLive(true);
        for (const [query, s] of this.subs) ws.send(JSON.stringify({ jsonrpc: '2.0', id: s.id, method: 'subscribe', params: { query } }));
        for (const w of this.waiters.splice(0)) w();
      };
      ws.onmessage = (m) => {
        let msg;
        try { msg = JSON.parse(m.data); } catch (e) { return; }
        const p = this.pending.get(msg.id);
        if (p) {
          this.pending.delete(msg.id);
          if (msg.error) p.reject(new Error(msg.error.data || msg.error.message)); else p.resolve(msg.result);
          return;
        }
        for (const s of this.subs.values()) if (s.id === msg.id && msg.result && msg.result.data) s.cb(msg.result);
      };
      ws.onclose = () => {
        setLive(false);
        for (const p of this.pending.values()) p.reject(new Error('the RPC websocket closed'));
        this.pending.clear();
        setTimeout(() => this.connect(), 2000);
      };
    }
    ready() {
      if (this.ws.readyState === WebSocket.OPEN) return Promise.resolve();
      return new Promise((resolve) => this.waiters.push(resolve));
    }
    async call(method, params) {
      await this.ready();
      const id = this.nextId++;
      return new Promise((resolve, reject) => {
        this.pending.set(id, { resolve, reject });
        this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
      });
    }
    subscribe(query, cb) {
      // integer ids: CometBFT's websocket refuses other id types
      const id = this.nextId++;
      this.subs.set(query, { id, cb });
      if (this.ws.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify({ jsonrpc: '2.0', id, method: 'subscribe', params: { query } }));
    }
  }

  function setLive(on) {
    const s = document.getElementById('live-status');
    s.textContent = on ? 'live' : 'reconnecting…';
    s.className = 'status' + (on ? ' live' : '');
  }

  // ---- amounts and values --------------------------------------------------------------------------

  function denomInfo(denom) {
    if (denom === cfg.denom.base) return { decimals: cfg.denom.decimals, unit: cfg.denom.display };
    const t = (state.tokens || []).find((x) => x.min_unit === denom);
    return t ? { decimals: Number(t.scale), unit: t.symbol } : undefined;
  }
  function fmtCoin(amount, denom) {
    const i = denomInfo(denom);
    return i ? L.formatUnits(amount, i.decimals) + ' ' + i.unit : L.formatUnits(amount, 0) + ' ' + denom;
  }
  const fmtCoins = (coins) => ((coins || []).length ? coins.map((c) => fmtCoin(c.amount, c.denom)).join(', ') : '0');
  const COIN_RE = /^(\d+(?:\.\d+)?)([a-zA-Z][a-zA-Z0-9/:._-]{1,127})$/;

  function isAddress(s) {
    if (/^0x[0-9a-fA-F]{40}$/.test(s)) return 'account';
    if (s.startsWith(cfg.bech32Prefix + 'valoper1')) return 'validator';
    if (s.startsWith(cfg.bech32Prefix + '1') && s.length >= 39) return 'account';
    return undefined;
  }

  /** A string from the chain, linked when it is an address and formatted when it is a coin amount text. */
  function valueText(s) {
    const kind = isAddress(s);
    if (kind) return link(kind + '/' + s, s, { class: 'mono' });
    const coins = s.split(',');
    // `1234achain` or `5utoken,7achain`; never a 0x hex value (it would read as 0 of denom x…)
    if (!/^0x/i.test(s) && coins.every((c) => COIN_RE.test(c))) {
      return el('span', { title: s }, coins.map((c) => { const m = COIN_RE.exec(c); return fmtCoin(m[1], m[2]); }).join(', '));
    }
    return s.length > 40 ? mono(s) : s;
  }

  /** A decoded message field: coins formatted, addresses linked, other structures as JSON. */
  function renderValue(v) {
    if (typeof v === 'string') return valueText(v);
    if (v === null || v === undefined) return el('span', { class: 'muted' }, 'null');
    if (typeof v !== 'object') return String(v);
    const isCoin = (c) => c && typeof c === 'object' && typeof c.denom === 'string' && typeof c.amount === 'string' && Object.keys(c).length === 2;
    if (isCoin(v)) return fmtCoin(v.amount, v.denom);
    if (Array.isArray(v) && v.length > 0 && v.every(isCoin)) return fmtCoins(v);
    return el('pre', null, JSON.stringify(v, null, 2));
  }

  const shortType = (t) => String(t).split('.').pop();

  // ---- live blocks and txs -------------------------------------------------------------------------

  function addBlock(b, fresh) {
    if (state.blocks.some((x) => x.height === b.height)) return;
    b.fresh = fresh;
    state.blocks.push(b);
    state.blocks.sort((x, y) => y.height - x.height);
    state.blocks.length = Math.min(state.blocks.length, MAX_LIVE);
    renderLive();
  }
  function addTx(t, fresh) {
    if (state.txs.some((x) => x.hash === t.hash)) return;
    t.fresh = fresh;
    state.txs.push(t);
    state.txs.sort((x, y) => y.height - x.height || y.index - x.index);
    state.txs.length = Math.min(state.txs.length, MAX_LIVE);
    renderLive();
  }
  function actionsOf(events) {
    const out = [];
    for (const e of events || []) if (e.type === 'message') for (const a of e.attributes || []) if (a.key === 'action') out.push(a.value);
    return out;
  }
  function proposerName(hexAddr) {
    const v = state.validators && state.validators.list.find((x) => x.consHex === hexAddr);
    return v ? link('validator/' + v.operator_address, v.description.moniker || short(v.operator_address)) : mono(short(hexAddr, 8));
  }

  function renderLive() {
    const bt = document.querySelector('#latest-blocks tbody');
    if (bt) {
      bt.replaceChildren(...state.blocks.map((b) => el('tr', { class: b.fresh ? 'fresh' : null, 'data-height': b.height },
        el('td', null, link('block/' + b.height, String(b.height))),
        el('td', { class: 'mono' }, short(b.hash, 8)),
        el('td', null, String(b.txs)),
        el('td', null, proposerName(b.proposer)),
        el('td', null, time(b.time)))));
      for (const b of state.blocks) b.fresh = false;
    }
    const tt = document.querySelector('#latest-txs tbody');
    if (tt) {
      tt.replaceChildren(...state.txs.map((t) => el('tr', { class: t.fresh ? 'fresh' : null, 'data-hash': t.hash },
        el('td', null, link('tx/' + t.hash, short(t.hash, 8), { class: 'mono' })),
        el('td', null, link('block/' + t.height, String(t.height))),
        el('td', null, t.actions.map((a) => el('span', { class: 'tag' }, shortType(a)))),
        el('td', null, t.code === 0 ? el('span', { class: 'ok' }, 'ok') : el('span', { class: 'bad' }, 'failed (' + t.code + ')')))));
      for (const t of state.txs) t.fresh = false;
    }
    const h = document.getElementById('summary-height');
    if (h && state.blocks[0]) h.textContent = String(state.blocks[0].height);
  }

  async function startLive() {
    comet = new CometWs(cfg.rpcWebsocket);
    comet.subscribe("tm.event='NewBlock'", (r) => {
      const v = r.data.value;
      const hd = v.block.header;
      addBlock({ height: Number(hd.height), hash: v.block_id.hash, time: hd.time, txs: ((v.block.data && v.block.data.txs) || []).length, proposer: hd.proposer_address }, true);
    });
    comet.subscribe("tm.event='Tx'", (r) => {
      const t = r.data.value.TxResult;
      const ev = r.events || {};
      const hash = (ev['tx.hash'] || [])[0] || L.txHashOfBase64(t.tx);
      addTx({ hash, height: Number(t.height), index: t.index || 0, code: (t.result && t.result.code) || 0, actions: ev['message.action'] || [] }, true);
    });
    // the first rows: the latest blocks and txs, over the same websocket
    const [chain, txs] = await Promise.all([
      comet.call('blockchain', {}),
      comet.call('tx_search', { query: 'tx.height>0', page: '1', per_page: String(MAX_LIVE), order_by: 'desc' }),
    ]);
    for (const m of chain.block_metas || []) {
      addBlock({ height: Number(m.header.height), hash: m.block_id.hash, time: m.header.time, txs: Number(m.num_txs), proposer: m.header.proposer_address }, false);
    }
    for (const t of txs.txs || []) {
      addTx({ hash: t.hash, height: Number(t.height), index: t.index || 0, code: t.tx_result.code || 0, actions: actionsOf(t.tx_result.events) }, false);
    }
  }

  // ---- caches of chain-wide lists ------------------------------------------------------------------

  async function loadTokens() {
    state.tokens = await restAll('/cosmos/prc10/tokens', 'Tokens', 1000, []);
    return state.tokens;
  }

  async function loadValidators() {
    const [vals, set, infos, params] = await Promise.all([
      restAll('/cosmos/staking/v1beta1/validators', 'validators', 1000),
      rest('/cosmos/base/tendermint/v1beta1/validatorsets/latest?pagination.limit=100'),
      restAll('/cosmos/slashing/v1beta1/signing_infos', 'info', 1000, []),
      rest('/cosmos/slashing/v1beta1/params'),
    ]);
    const power = new Map(set.validators.map((v) => [v.pub_key.key, BigInt(v.voting_power)]));
    let totalPower = 0n;
    for (const p of power.values()) totalPower += p;
    const infoByCons = new Map(infos.map((i) => [i.address, i]));
    const list = vals.map((v) => {
      const key = v.consensus_pubkey && v.consensus_pubkey.key;
      const consBytes = key ? L.sha256(L.bytesOfBase64(key)).slice(0, 20) : new Uint8Array();
      const cons = key ? L.bech32Encode(cfg.bech32Prefix + 'valcons', consBytes) : '';
      return Object.assign({}, v, { cons, consHex: L.hexOf(consBytes).toUpperCase(), power: power.get(key) || 0n, info: infoByCons.get(cons) });
    });
    list.sort((a, b) => (b.power > a.power ? 1 : b.power < a.power ? -1 : 0) || (BigInt(b.tokens) > BigInt(a.tokens) ? 1 : -1));
    state.validators = { list, totalPower, window: Number(params.params.signed_blocks_window), height: Number(set.block_height) };
    renderLive();
    return state.validators;
  }

  /** Uptime over the slashing window: blocks signed of the blocks counted since the validator's start height. */
  function uptime(v, vs) {
    if (!v.info) return '—';
    const counted = Math.min(vs.window, vs.height - Number(v.info.start_height) + 1);
    if (counted <= 0) return '—';
    const missed = Number(v.info.missed_blocks_counter);
    return (((counted - missed) / counted) * 100).toFixed(2) + ' % (' + missed + ' missed of ' + counted + ')';
  }

  // ---- views ---------------------------------------------------------------------------------------

  async function homeView() {
    const [pool, supply, inflation] = await Promise.all([
      restOr('/cosmos/staking/v1beta1/pool', null),
      restOr('/cosmos/bank/v1beta1/supply/by_denom?denom=' + enc(cfg.denom.base), null),
      restOr('/cosmos/mint/v1beta1/inflation', null),
    ]);
    const node = el('div', { id: 'home' },
      card(null, kv([
        ['Chain', cfg.chainId + (cfg.evmChainId !== null ? ' (EVM chain id ' + cfg.evmChainId + ')' : '')],
        ['Latest height', el('span', { id: 'summary-height' }, state.blocks[0] ? String(state.blocks[0].height) : '…')],
        ['Bonded', pool ? fmtCoin(pool.pool.bonded_tokens, cfg.denom.base) : '—'],
        ['Total supply', supply ? fmtCoin(supply.amount.amount, supply.amount.denom) : '—'],
        ['Inflation', inflation ? (Number(inflation.inflation) * 100).toFixed(2) + ' %' : '—'],
      ])),
      el('div', { class: 'cols' },
        card('Latest blocks', table(['Height', 'Hash', 'Txs', 'Proposer', 'Time'], [], { id: 'latest-blocks' })),
        card('Latest transactions', table(['Hash', 'Height', 'Messages', 'Result'], [], { id: 'latest-txs' }))));
    return node;
  }

  async function blockView(arg) {
    if (!/^\d+$/.test(arg)) throw new Error('Not a height: ' + arg);
    const height = Number(arg);
    const [b, found] = await Promise.all([
      rest('/cosmos/base/tendermint/v1beta1/blocks/' + height),
      restOr('/cosmos/tx/v1beta1/txs?events=' + enc('tx.height=' + height) + '&pagination.limit=100', { tx_responses: [] }),
    ]);
    if (!state.validators) await loadValidators().catch(() => undefined);
    const blk = b.sdk_block || b.block;
    const hd = blk.header;
    const results = new Map((found.tx_responses || []).map((r) => [r.txhash, r]));
    const txs = ((blk.data && blk.data.txs) || []).map((t) => L.txHashOfBase64(t));
    const proposer = state.validators && state.validators.list.find((v) => v.cons === hd.proposer_address);
    return el('div', { id: 'block-view' },
      el('h1', null, 'Block ', el('span', { id: 'block-height' }, String(height))),
      el('p', null, height > 1 ? link('block/' + (height - 1), '← ' + (height - 1)) : null, ' ', link('block/' + (height + 1), (height + 1) + ' →')),
      card(null, kv([
        ['Hash', mono(L.hexOf(L.bytesOfBase64(b.block_id.hash)).toUpperCase()), 'block-hash'],
        ['Time', time(hd.time)],
        ['Chain id', hd.chain_id],
        ['Proposer', proposer ? link('validator/' + proposer.operator_address, proposer.description.moniker + ' (' + proposer.operator_address + ')') : mono(hd.proposer_address)],
        ['Transactions', String(txs.length), 'block-txs'],
        ['App hash', mono(L.hexOf(L.bytesOfBase64(hd.app_hash || '')).toUpperCase())],
        ['Previous block', hd.last_block_id && hd.last_block_id.hash ? mono(L.hexOf(L.bytesOfBase64(hd.last_block_id.hash)).toUpperCase()) : '—'],
      ])),
      card('Transactions', txs.length === 0 ? el('p', { class: 'muted' }, 'No transactions in this block.') : table(['Hash', 'Messages', 'Result', 'Gas used'], txs.map((h) => {
        const r = results.get(h);
        const msgs = r && r.tx && r.tx.body ? r.tx.body.messages.map((m) => el('span', { class: 'tag' }, shortType(m['@type']))) : [];
        return el('tr', null, el('td', null, link('tx/' + h, h, { class: 'mono' })), el('td', null, msgs),
          el('td', null, !r ? '' : r.code === 0 ? el('span', { class: 'ok' }, 'ok') : el('span', { class: 'bad' }, 'failed (' + r.code + ')')),
          el('td', null, r ? r.gas_used + ' / ' + r.gas_wanted : ''));
      }), { id: 'block-tx-list' })));
  }

  function eventsCard(title, events, id) {
    return card(title, (events || []).length === 0 ? el('p', { class: 'muted' }, 'None.') : el('div', { id },
      events.map((e) => el('div', { class: 'event', 'data-type': e.type }, el('h3', null, e.type),
        table(['Key', 'Value'], (e.attributes || []).map((a) => el('tr', null, el('td', { class: 'mono' }, a.key), el('td', null, valueText(String(a.value))))))))));
  }

  async function ethSection(hash) {
    const [tx, rc] = await Promise.all([eth('eth_getTransactionByHash', [hash]), eth('eth_getTransactionReceipt', [hash])]);
    if (!tx) return card('Ethereum view', el('p', { class: 'muted' }, 'The Ethereum JSON-RPC does not know ' + hash + '.'));
    const big = (x) => (x === undefined || x === null ? '' : BigInt(x).toString());
    const addr = (a) => (a ? link('account/' + a, a, { class: 'mono' }) : '—');
    return el('div', { id: 'eth-view' },
      card('Ethereum view', kv([
        ['Hash', mono(tx.hash), 'eth-hash'],
        ['Status', rc ? (rc.status === '0x1' ? el('span', { class: 'ok' }, 'success') : el('span', { class: 'bad' }, 'reverted')) : 'pending', 'eth-status'],
        ['Block', tx.blockNumber ? link('block/' + Number(tx.blockNumber), String(Number(tx.blockNumber))) : 'pending'],
        ['From', addr(tx.from), 'eth-from'],
        ['To', addr(tx.to), 'eth-to'],
        rc && rc.contractAddress ? ['Contract created', addr(rc.contractAddress)] : null,
        ['Value', L.formatUnits(big(tx.value), cfg.denom.decimals) + ' ' + cfg.denom.display, 'eth-value'],
        ['Nonce', big(tx.nonce)],
        ['Type', big(tx.type)],
        ['Gas limit', big(tx.gas)],
        ['Gas used', rc ? big(rc.gasUsed) : ''],
        ['Gas price', big(rc && rc.effectiveGasPrice ? rc.effectiveGasPrice : tx.gasPrice) + ' ' + cfg.denom.base],
        ['Input', el('pre', null, tx.input && tx.input.length > 2002 ? tx.input.slice(0, 2002) + '… (' + (tx.input.length - 2) / 2 + ' bytes)' : tx.input || '0x')],
      ])),
      card('Ethereum logs', !rc || rc.logs.length === 0 ? el('p', { class: 'muted' }, 'No logs.') : table(['#', 'Address', 'Topics', 'Data'], rc.logs.map((l) => el('tr', null,
        el('td', null, String(Number(l.logIndex))), el('td', null, addr(l.address)),
        el('td', { class: 'mono' }, l.topics.map((t) => el('div', null, t))), el('td', { class: 'mono' }, l.data))), { id: 'eth-logs' })));
  }

  async function txView(arg) {
    let cosmosHash;
    let ethHash;
    if (/^0x[0-9a-fA-F]{64}$/.test(arg)) {
      ethHash = arg.toLowerCase();
      const r = await rest('/cosmos/tx/v1beta1/txs?events=' + enc("ethereum_tx.ethereumTxHash='" + ethHash + "'") + '&pagination.limit=1');
      cosmosHash = r.tx_responses && r.tx_responses[0] ? r.tx_responses[0].txhash : undefined;
    } else if (/^[0-9a-fA-F]{64}$/.test(arg)) {
      cosmosHash = arg.toUpperCase();
    } else {
      throw new Error('Not a tx hash: ' + arg);
    }
    const found = cosmosHash ? await restOr('/cosmos/tx/v1beta1/txs/' + cosmosHash, null) : null;
    if (!found && !ethHash) throw new Error('Transaction ' + cosmosHash + ' not found (not committed yet, or unknown to this node).');
    const parts = [el('h1', null, 'Transaction')];
    if (found) {
      const r = found.tx_response;
      const body = found.tx.body;
      const ethHashes = [];
      for (const e of r.events || []) if (e.type === 'ethereum_tx') for (const a of e.attributes) if (a.key === 'ethereumTxHash' && !ethHashes.includes(a.value)) ethHashes.push(a.value);
      if (!ethHash && ethHashes.length) ethHash = ethHashes[0];
      parts.push(card('Cosmos view', kv([
        ['Hash', mono(r.txhash), 'tx-hash'],
        ethHashes.length ? ['Ethereum hash', ethHashes.map((h) => el('div', null, link('tx/' + h, h, { class: 'mono' })))] : null,
        ['Height', link('block/' + r.height, r.height), 'tx-height'],
        ['Time', time(r.timestamp)],
        ['Result', r.code === 0 ? el('span', { class: 'ok' }, 'success') : el('span', { class: 'bad' }, 'failed: code ' + r.code + ' (' + r.codespace + ')'), 'tx-result'],
        r.code !== 0 ? ['Error', mono(r.raw_log)] : null,
        ['Gas used / wanted', r.gas_used + ' / ' + r.gas_wanted],
        ['Fee', fmtCoins(found.tx.auth_info.fee.amount)],
        ['Memo', body.memo || el('span', { class: 'muted' }, '(none)')],
      ])));
      // an EVM tx: the Ethereum view of the same tx (JSON-RPC) right under the Cosmos one
      if (ethHash && cfg.jsonRpc) parts.push(await ethSection(ethHash).catch((e) => errorBox(e)));
      parts.push(card('Messages (' + body.messages.length + ')', el('div', { id: 'tx-messages' }, body.messages.map((m, i) => el('div', { class: 'msg' },
        el('h3', null, '#' + i + ' ', el('span', { class: 'msg-type' }, m['@type'])),
        kv(Object.entries(m).filter(([k]) => k !== '@type').map(([k, v]) => [k, renderValue(v)])))))));
      parts.push(eventsCard('Events', r.events, 'tx-events'));
      parts.push(card('Logs', (r.logs || []).length === 0 ? el('p', { class: 'muted' }, r.code === 0 ? 'No message logs.' : 'A failed tx has no message logs; its error is above.')
        : table(['Message', 'Log', 'Events'], r.logs.map((l) => el('tr', null, el('td', null, '#' + l.msg_index), el('td', { class: 'mono' }, l.log || ''),
          el('td', null, (l.events || []).map((e) => el('span', { class: 'tag' }, e.type))))), { id: 'tx-logs' })));
    } else {
      parts.push(el('p', { class: 'muted' }, 'No Cosmos tx indexed for ' + ethHash + ' yet.'));
      if (cfg.jsonRpc) parts.push(await ethSection(ethHash).catch((e) => errorBox(e)));
    }
    return el('div', { id: 'tx-view' }, parts);
  }

  async function txsOfAccount(addr) {
    const q = (query) => restOr('/cosmos/tx/v1beta1/txs?events=' + enc(query) + '&order_by=ORDER_BY_DESC&pagination.limit=15', { tx_responses: [] });
    const [sent, received] = await Promise.all([q("message.sender='" + addr + "'"), q("transfer.recipient='" + addr + "'")]);
    const byHash = new Map();
    for (const r of (sent.tx_responses || []).concat(received.tx_responses || [])) byHash.set(r.txhash, r);
    return [...byHash.values()].sort((a, b) => Number(b.height) - Number(a.height)).slice(0, 15);
  }

  async function accountView(arg) {
    let bytes;
    if (/^0x[0-9a-fA-F]{40}$/.test(arg)) bytes = L.bytesOfHex(arg);
    else {
      const d = L.bech32Decode(arg);
      if (d.prefix === cfg.bech32Prefix + 'valoper') { location.hash = '#/validator/' + arg; return el('p', null, 'Validator…'); }
      if (d.prefix !== cfg.bech32Prefix) throw new Error('Not an account address of this chain: ' + arg);
      bytes = d.bytes;
    }
    const addr = L.bech32Encode(cfg.bech32Prefix, bytes);
    const hex = '0x' + L.hexOf(bytes);
    const [acct, bal, dels, unb, rewards, tokens, pools, txs, code] = await Promise.all([
      restOr('/cosmos/auth/v1beta1/accounts/' + addr, null),
      restAll('/cosmos/bank/v1beta1/balances/' + addr, 'balances', 1000),
      restOr('/cosmos/staking/v1beta1/delegations/' + addr, { delegation_responses: [] }),
      restOr('/cosmos/staking/v1beta1/delegators/' + addr + '/unbonding_delegations', { unbonding_responses: [] }),
      restOr('/cosmos/distribution/v1beta1/delegators/' + addr + '/rewards', { rewards: [], total: [] }),
      loadTokens(),
      restAll('/cosmos/liquidity/v1beta1/pools', 'pools', 1000, []),
      txsOfAccount(addr),
      cfg.jsonRpc ? eth('eth_getCode', [hex, 'latest']).catch(() => '0x') : Promise.resolve('0x'),
    ]);
    const balances = bal;
    const poolShares = [];
    for (const p of pools) {
      const held = balances.find((c) => c.denom === p.pool_coin_denom);
      if (!held) continue;
      const [supply, reserves] = await Promise.all([
        rest('/cosmos/bank/v1beta1/supply/by_denom?denom=' + enc(p.pool_coin_denom)),
        rest('/cosmos/bank/v1beta1/balances/' + p.reserve_account_address),
      ]);
      const total = supply.amount.amount;
      poolShares.push(el('tr', null, el('td', null, link('pools', '#' + p.id)), el('td', { class: 'mono' }, p.pool_coin_denom), el('td', null, held.amount),
        el('td', null, L.percent(held.amount, total, 4)),
        el('td', null, (reserves.balances || []).map((c) => el('div', null, fmtCoin((BigInt(c.amount) * BigInt(held.amount) / BigInt(total)).toString(), c.denom))))));
    }
    const account = acct && acct.account;
    const owned = tokens.filter((t) => t.owner === addr);
    return el('div', { id: 'account-view' },
      el('h1', null, 'Account'),
      card(null, kv([
        ['Address', mono(addr), 'account-bech32'],
        ['Ethereum address', mono(hex), 'account-hex'],
        ['Type', account ? shortType(account['@type']) + (code && code !== '0x' ? ' (EVM contract, ' + (code.length - 2) / 2 + ' bytes of code)' : '') : 'not on chain yet (no account record)'],
        account && account.account_number !== undefined ? ['Account number / sequence', account.account_number + ' / ' + account.sequence] : null,
        ['Balances', balances.length ? el('div', null, balances.map((c) => el('div', { 'data-denom': c.denom, title: c.amount + c.denom }, fmtCoin(c.amount, c.denom)))) : '0', 'balances'],
      ])),
      card('Delegations', (dels.delegation_responses || []).length === 0 ? el('p', { class: 'muted' }, 'None.')
        : table(['Validator', 'Amount', 'Rewards'], dels.delegation_responses.map((d) => {
          const rw = (rewards.rewards || []).find((x) => x.validator_address === d.delegation.validator_address);
          return el('tr', null, el('td', null, link('validator/' + d.delegation.validator_address, d.delegation.validator_address, { class: 'mono' })),
            el('td', null, fmtCoin(d.balance.amount, d.balance.denom)), el('td', null, rw ? fmtCoins(rw.reward) : '0'));
        }), { id: 'delegations' }),
        (rewards.total || []).length ? el('p', null, 'Total rewards: ', fmtCoins(rewards.total)) : null),
      (unb.unbonding_responses || []).length ? card('Unbonding', table(['Validator', 'Amount', 'Completes'], unb.unbonding_responses.flatMap((u) => u.entries.map((e) => el('tr', null,
        el('td', null, link('validator/' + u.validator_address, u.validator_address, { class: 'mono' })), el('td', null, fmtCoin(e.balance, cfg.denom.base)), el('td', null, time(e.completion_time))))))) : null,
      card('Tokens owned (token module)', owned.length === 0 ? el('p', { class: 'muted' }, 'None.')
        : table(['Symbol', 'Name', 'Min unit', 'Mintable'], owned.map((t) => el('tr', null, el('td', null, t.symbol), el('td', null, t.name), el('td', { class: 'mono' }, t.min_unit), el('td', null, t.mintable ? 'yes' : 'no'))), { id: 'owned-tokens' })),
      card('Liquidity pool shares', poolShares.length === 0 ? el('p', { class: 'muted' }, 'None.') : table(['Pool', 'Pool coin', 'Held', 'Share', 'Underlying reserves'], poolShares, { id: 'pool-shares' })),
      card('Recent transactions', txs.length === 0 ? el('p', { class: 'muted' }, 'None found.') : table(['Hash', 'Height', 'Messages', 'Result'], txs.map((r) => el('tr', null,
        el('td', null, link('tx/' + r.txhash, short(r.txhash, 10), { class: 'mono' })), el('td', null, link('block/' + r.height, r.height)),
        el('td', null, (r.tx && r.tx.body ? r.tx.body.messages : []).map((m) => el('span', { class: 'tag' }, shortType(m['@type'])))),
        el('td', null, r.code === 0 ? el('span', { class: 'ok' }, 'ok') : el('span', { class: 'bad' }, 'failed (' + r.code + ')')))), { id: 'account-txs' })));
  }

  async function validatorsView() {
    const vs = await loadValidators();
    return el('div', { id: 'validators-view' },
      el('h1', null, 'Validators'),
      card(null, el('p', { class: 'muted' }, 'Voting power from the validator set at height ' + vs.height + '; uptime over the slashing window of ' + vs.window + ' blocks.'),
        table(['#', 'Moniker', 'Operator', 'Status', 'Voting power', 'Tokens', 'Commission', 'Uptime'], vs.list.map((v, i) => el('tr', { 'data-operator': v.operator_address },
          el('td', null, String(i + 1)),
          el('td', null, link('validator/' + v.operator_address, v.description.moniker || '(no moniker)')),
          el('td', { class: 'mono' }, short(v.operator_address, 14)),
          el('td', null, v.status.replace('BOND_STATUS_', '').toLowerCase() + (v.jailed ? ', jailed' : '')),
          el('td', null, v.power.toString() + ' (' + L.percent(v.power, vs.totalPower, 2) + ')'),
          el('td', null, fmtCoin(v.tokens, cfg.denom.base)),
          el('td', null, (Number(v.commission.commission_rates.rate) * 100).toFixed(2) + ' %'),
          el('td', null, uptime(v, vs)))), { id: 'validators' })));
  }

  async function validatorView(arg) {
    const vs = await loadValidators();
    const v = vs.list.find((x) => x.operator_address === arg);
    if (!v) throw new Error('No validator ' + arg);
    const dels = await restOr('/cosmos/staking/v1beta1/validators/' + arg + '/delegations?pagination.limit=100', { delegation_responses: [] });
    const operatorAccount = L.bech32Encode(cfg.bech32Prefix, L.bech32Decode(arg).bytes);
    return el('div', { id: 'validator-view' },
      el('h1', null, v.description.moniker || arg),
      card(null, kv([
        ['Operator', mono(v.operator_address), 'validator-operator'],
        ['Account', link('account/' + operatorAccount, operatorAccount, { class: 'mono' })],
        ['Consensus address', mono(v.cons)],
        ['Status', v.status.replace('BOND_STATUS_', '').toLowerCase() + (v.jailed ? ', jailed' : '')],
        ['Voting power', v.power.toString() + ' (' + L.percent(v.power, vs.totalPower, 2) + ')'],
        ['Tokens', fmtCoin(v.tokens, cfg.denom.base)],
        ['Commission', (Number(v.commission.commission_rates.rate) * 100).toFixed(2) + ' % (max ' + (Number(v.commission.commission_rates.max_rate) * 100).toFixed(2) + ' %)'],
        ['Uptime', uptime(v, vs)],
        v.info && v.info.jailed_until && !v.info.jailed_until.startsWith('1970') ? ['Jailed until', time(v.info.jailed_until)] : null,
        v.info && v.info.tombstoned ? ['Tombstoned', 'yes'] : null,
        ['Website', v.description.website || '—'],
        ['Details', v.description.details || '—'],
      ])),
      card('Delegations', table(['Delegator', 'Amount'], (dels.delegation_responses || []).map((d) => el('tr', null,
        el('td', null, link('account/' + d.delegation.delegator_address, d.delegation.delegator_address, { class: 'mono' })),
        el('td', null, fmtCoin(d.balance.amount, d.balance.denom)))))));
  }

  function tallyCells(t) {
    const keys = ['yes', 'no', 'abstain', 'no_with_veto'];
    let total = 0n;
    for (const k of keys) total += BigInt(String(t[k] || '0').split('.')[0]);
    // voting power in the bond denom, and its share of the votes cast
    return keys.map((k) => el('td', null, fmtCoin(t[k] || '0', cfg.denom.base), total > 0n ? ' (' + L.percent(t[k] || '0', total, 1) + ')' : ''));
  }

  async function proposalsView() {
    const props = (await restAll('/cosmos/gov/v1beta1/proposals', 'proposals', 1000)).reverse();
    const tallies = await Promise.all(props.map((p) => (p.status === 'PROPOSAL_STATUS_VOTING_PERIOD'
      ? rest('/cosmos/gov/v1beta1/proposals/' + p.proposal_id + '/tally').then((x) => x.tally, () => p.final_tally_result) : Promise.resolve(p.final_tally_result))));
    return el('div', { id: 'proposals-view' }, el('h1', null, 'Proposals'),
      card(null, props.length === 0 ? el('p', { class: 'muted' }, 'No proposals yet.') : table(['#', 'Title', 'Type', 'Status', 'Yes', 'No', 'Abstain', 'Veto', 'Voting ends'],
        props.map((p, i) => el('tr', null, el('td', null, link('proposal/' + p.proposal_id, p.proposal_id)), el('td', null, (p.content && p.content.title) || ''),
          el('td', null, el('span', { class: 'tag' }, shortType(p.content ? p.content['@type'] : ''))), el('td', null, p.status.replace('PROPOSAL_STATUS_', '').toLowerCase()),
          tallyCells(tallies[i] || {}), el('td', null, p.voting_end_time && !p.voting_end_time.startsWith('0001') ? time(p.voting_end_time) : '—'))), { id: 'proposals' })));
  }

  async function proposalView(arg) {
    if (!/^\d+$/.test(arg)) throw new Error('Not a proposal id: ' + arg);
    const [p, tally, votes, deposits] = await Promise.all([
      rest('/cosmos/gov/v1beta1/proposals/' + arg),
      restOr('/cosmos/gov/v1beta1/proposals/' + arg + '/tally', null),
      restOr('/cosmos/gov/v1beta1/proposals/' + arg + '/votes?pagination.limit=100', { votes: [] }),
      restOr('/cosmos/gov/v1beta1/proposals/' + arg + '/deposits?pagination.limit=100', { deposits: [] }),
    ]);
    const pr = p.proposal;
    const t = pr.status === 'PROPOSAL_STATUS_VOTING_PERIOD' && tally ? tally.tally : pr.final_tally_result;
    const content = Object.assign({}, pr.content);
    delete content['@type'];
    return el('div', { id: 'proposal-view' },
      el('h1', null, 'Proposal ' + pr.proposal_id + ': ' + (pr.content && pr.content.title ? pr.content.title : '')),
      card(null, kv([
        ['Type', pr.content ? pr.content['@type'] : ''],
        ['Status', pr.status.replace('PROPOSAL_STATUS_', '').toLowerCase(), 'proposal-status'],
        ['Submitted', time(pr.submit_time)],
        ['Deposit ends', time(pr.deposit_end_time)],
        ['Total deposit', fmtCoins(pr.total_deposit)],
        ['Voting', pr.voting_start_time && !pr.voting_start_time.startsWith('0001') ? time(pr.voting_start_time) + ' – ' + time(pr.voting_end_time) : 'not started'],
        ['Content', renderValue(content)],
      ])),
      card(pr.status === 'PROPOSAL_STATUS_VOTING_PERIOD' ? 'Tally so far' : 'Final tally', table(['Yes', 'No', 'Abstain', 'No with veto'], [el('tr', null, tallyCells(t || {}))], { id: 'proposal-tally' })),
      card('Votes', (votes.votes || []).length === 0 ? el('p', { class: 'muted' }, 'None.') : table(['Voter', 'Option'], votes.votes.map((v) => el('tr', null,
        el('td', null, link('account/' + v.voter, v.voter, { class: 'mono' })),
        el('td', null, (v.options && v.options.length ? v.options.map((o) => o.option.replace('VOTE_OPTION_', '').toLowerCase() + ' ' + Number(o.weight)).join(', ') : String(v.option))))))),
      card('Deposits', (deposits.deposits || []).length === 0 ? el('p', { class: 'muted' }, 'None.') : table(['Depositor', 'Amount'], deposits.deposits.map((d) => el('tr', null,
        el('td', null, link('account/' + d.depositor, d.depositor, { class: 'mono' })), el('td', null, fmtCoins(d.amount)))))));
  }

  async function tokensView() {
    const tokens = await loadTokens();
    const supplies = await Promise.all(tokens.slice(0, 100).map((t) => restOr('/cosmos/bank/v1beta1/supply/by_denom?denom=' + enc(t.min_unit), null)));
    return el('div', { id: 'tokens-view' }, el('h1', null, 'Tokens'),
      card(null, table(['Symbol', 'Name', 'Min unit', 'Scale', 'Supply', 'Max supply', 'Mintable', 'Owner'], tokens.map((t, i) => el('tr', { 'data-symbol': t.symbol },
        el('td', null, t.symbol), el('td', null, t.name), el('td', { class: 'mono' }, t.min_unit), el('td', null, String(t.scale)),
        el('td', null, supplies[i] ? fmtCoin(supplies[i].amount.amount, t.min_unit) : '—'),
        el('td', null, L.formatUnits(t.max_supply, 0) + ' ' + t.symbol),
        el('td', null, t.mintable ? 'yes' : 'no'), el('td', null, t.owner ? link('account/' + t.owner, short(t.owner, 12), { class: 'mono' }) : '—'))), { id: 'tokens' })));
  }

  /** The pool price reserve X / reserve Y in display units when both denoms are known (else in base units). */
  function displayPrice(ax, x, ay, y) {
    const ix = denomInfo(x);
    const iy = denomInfo(y);
    if (!ix || !iy) return L.ratio(ax, ay, 8) + ' ' + x + ' per ' + y;
    const num = (BigInt(ax) * 10n ** BigInt(iy.decimals)).toString();
    const den = (BigInt(ay) * 10n ** BigInt(ix.decimals)).toString();
    return L.ratio(num, den, 8) + ' ' + ix.unit + ' per ' + iy.unit;
  }

  async function poolsView() {
    const pools = await restAll('/cosmos/liquidity/v1beta1/pools', 'pools', 1000, []);
    await loadTokens().catch(() => undefined); // the decimals of tokens issued since the page opened
    const rows = await Promise.all(pools.map(async (p) => {
      const [res, supply] = await Promise.all([
        rest('/cosmos/bank/v1beta1/balances/' + p.reserve_account_address),
        restOr('/cosmos/bank/v1beta1/supply/by_denom?denom=' + enc(p.pool_coin_denom), null),
      ]);
      const [x, y] = p.reserve_coin_denoms;
      const amt = (d) => ((res.balances || []).find((c) => c.denom === d) || { amount: '0' }).amount;
      return el('tr', { 'data-pool': p.id },
        el('td', null, '#' + p.id),
        el('td', null, p.reserve_coin_denoms.join(' / ')),
        el('td', null, el('div', null, fmtCoin(amt(x), x)), el('div', null, fmtCoin(amt(y), y))),
        el('td', { title: L.ratio(amt(x), amt(y), 8) + ' ' + x + ' per ' + y + ' (base units)' }, displayPrice(amt(x), x, amt(y), y)),
        el('td', { class: 'mono' }, p.pool_coin_denom),
        el('td', null, supply ? supply.amount.amount : '—'),
        el('td', null, link('account/' + p.reserve_account_address, short(p.reserve_account_address, 12), { class: 'mono' })));
    }));
    return el('div', { id: 'pools-view' }, el('h1', null, 'Liquidity pools'),
      card(null, pools.length === 0 ? el('p', { class: 'muted' }, 'No pools yet.')
        : table(['Pool', 'Pair', 'Reserves', 'Price', 'Pool coin', 'Pool coin supply', 'Reserve account'], rows, { id: 'pools' })));
  }

  async function walletView() {
    const get = (p) => fetch(p).then((r) => r.json());
    const [keplr, chain, assets] = await Promise.all([get(cfg.wallet.keplr), get(cfg.wallet.chainRegistry), get(cfg.wallet.assetList)]);
    const out = el('p', { id: 'wallet-result', class: 'muted' });
    const addKeplr = async () => {
      if (!window.keplr) { out.textContent = 'Keplr is not installed in this browser.'; return; }
      try { await window.keplr.experimentalSuggestChain(keplr); out.textContent = 'Keplr added ' + keplr.chainId + '.'; } catch (e) { out.textContent = String(e.message || e); }
    };
    const addEvm = async () => {
      if (!window.ethereum) { out.textContent = 'No Ethereum wallet (window.ethereum) in this browser.'; return; }
      try {
        await window.ethereum.request({ method: 'wallet_addEthereumChain', params: [{
          chainId: '0x' + cfg.evmChainId.toString(16), chainName: cfg.chainName, rpcUrls: [cfg.jsonRpc],
          nativeCurrency: { name: cfg.denom.display, symbol: cfg.denom.symbol, decimals: cfg.denom.decimals },
        }] });
        out.textContent = 'Network added.';
      } catch (e) { out.textContent = String(e.message || e); }
    };
    return el('div', { id: 'wallet-view' }, el('h1', null, 'Wallets'),
      card(null, el('p', null, el('button', { class: 'action', onclick: addKeplr }, 'Add to Keplr'), ' ',
        cfg.jsonRpc && cfg.evmChainId !== null ? el('button', { class: 'action', onclick: addEvm }, 'Add to an Ethereum wallet') : null), out),
      card('Keplr chain info (' + cfg.wallet.keplr + ')', el('pre', { id: 'keplr-json' }, JSON.stringify(keplr, null, 2))),
      card('chain-registry chain.json (' + cfg.wallet.chainRegistry + ')', el('pre', null, JSON.stringify(chain, null, 2))),
      card('chain-registry assetlist.json (' + cfg.wallet.assetList + ')', el('pre', null, JSON.stringify(assets, null, 2))));
  }

  const VIEWS = {
    '': homeView, block: blockView, tx: txView, account: accountView, validators: validatorsView, validator: validatorView,
    proposals: proposalsView, proposal: proposalView, tokens: tokensView, pools: poolsView, wallet: walletView,
  };

  let seq = 0;
  async function route() {
    const mine = ++seq;
    const [name, ...rest_] = location.hash.replace(/^#\/?/, '').split('/');
    const arg = decodeURIComponent(rest_.join('/'));
    const view = VIEWS[name];
    main.replaceChildren(el('p', { class: 'muted', id: 'loading' }, 'Loading…'));
    let node;
    try {
      node = view ? await view(arg) : errorBox('Unknown page #/' + name);
    } catch (e) {
      node = errorBox(e);
    }
    if (mine === seq) {
      main.replaceChildren(node);
      renderLive();
    }
  }

  document.getElementById('search').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const input = document.getElementById('search-input');
    const r = L.classifyQuery(input.value, cfg.bech32Prefix);
    if (r.error) { main.replaceChildren(errorBox(r.error)); return; }
    const target = '#/' + r.route;
    if (location.hash === target) route(); else location.hash = target;
  });
  window.addEventListener('hashchange', route);

  (async () => {
    try {
      cfg = await (await fetch('config.json')).json();
    } catch (e) {
      main.replaceChildren(errorBox('Cannot read config.json: ' + e.message));
      return;
    }
    document.getElementById('chain-id').textContent = cfg.chainId;
    document.title = cfg.chainName + ' explorer';
    loadTokens().catch(() => undefined);
    loadValidators().catch(() => undefined);
    startLive().catch((e) => console.error('live feed:', e));
    route();
  })();
})();
