/** One key/value attribute of an ABCI event (`index` marks it for the tx/block indexer). */
export interface EventAttribute {
  key: string;
  value: string;
  index?: boolean;
}

/** An ABCI event as emitted by the application (FinalizeBlock / ExecTxResult). */
export interface Event {
  type: string;
  attributes: EventAttribute[];
}

/** Flattened event map as carried by pubsub messages: `"<type>.<key>"` → values in emission order. */
export type FlatEvents = Record<string, string[]>;

/**
 * Flattens events the way CometBFT's event bus does: every attribute with a non-empty key of every
 * event with a non-empty type becomes `"<type>.<key>"`, values kept in order with duplicates, indexed
 * or not. `extra` values (e.g. `tm.event`, `tx.hash`, `tx.height`) are appended after the app's values
 * for the same key (an empty list adds nothing). The result is a fresh object with own properties only.
 */
export function flattenEvents(
  events: readonly Event[],
  extra?: Readonly<Record<string, readonly string[]>>,
): FlatEvents {
  const out = new Map<string, string[]>();
  const add = (key: string, value: string): void => {
    const list = out.get(key);
    if (list === undefined) out.set(key, [value]);
    else list.push(value);
  };
  for (const event of events) {
    if (event.type.length === 0) continue;
    for (const attr of event.attributes) {
      if (attr.key.length === 0) continue;
      add(`${event.type}.${attr.key}`, attr.value);
    }
  }
  if (extra !== undefined) {
    for (const key of Object.keys(extra)) {
      const values = extra[key]!;
      for (const v of values) add(key, v);
    }
  }
  // fromEntries defines own data properties, so a key like "__proto__" cannot touch the prototype.
  return Object.fromEntries(out);
}
