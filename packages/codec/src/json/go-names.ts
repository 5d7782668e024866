/** Go names of protobuf declarations as protoc-gen-gogo prints them (used in gateway error texts). */
import protobuf from 'protobufjs';

/** protoc-gen-go `CamelCase` (Go struct field / type names). */
export function goCamelCase(s: string): string {
  let out = '';
  let i = 0;
  if (s.startsWith('_')) {
    out = 'X';
    i = 1;
  }
  for (; i < s.length; i++) {
    let c = s[i]!;
    if (c === '_' && i + 1 < s.length && isLower(s[i + 1]!)) continue;
    if (c >= '0' && c <= '9') {
      out += c;
      continue;
    }
    if (isLower(c)) c = c.toUpperCase();
    out += c;
    while (i + 1 < s.length && isLower(s[i + 1]!)) {
      i++;
      out += s[i];
    }
  }
  return out;
}

function isLower(c: string): boolean {
  return c >= 'a' && c <= 'z';
}

/** Go type name as `pkg.Outer_Inner` (package from `go_package`, `types` for google.protobuf). */
export function goTypeOf(obj: protobuf.ReflectionObject): string {
  const names: string[] = [];
  let p: protobuf.ReflectionObject | null = obj;
  while (p && (p instanceof protobuf.Type || p instanceof protobuf.Enum)) {
    names.unshift(goCamelCase(p.name));
    p = p.parent;
  }
  let pkg = '';
  if (obj.fullName.startsWith('.google.protobuf.')) pkg = 'types';
  for (let ns = p; pkg === '' && ns; ns = ns.parent) {
    const gp = (ns.options as Record<string, unknown> | undefined)?.['go_package'];
    if (typeof gp === 'string' && gp !== '') {
      const semi = gp.indexOf(';');
      pkg = semi >= 0 ? gp.slice(semi + 1) : gp.slice(gp.lastIndexOf('/') + 1);
    }
  }
  if (pkg === '') pkg = p && p.name ? p.name : 'main';
  return pkg + '.' + names.join('_');
}
