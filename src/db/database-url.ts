/**
 * A database URL as libpq reads it, with several hosts: `postgresql://user:pw@h1:5432,h2:5433/db?
 * target_session_attrs=read-write`. node-postgres reads one host only (its parser throws on the
 * list), so the service splits the list here and tries the hosts itself (sessions.ts), as libpq
 * would: in order, keeping a session that is what `target_session_attrs` asks for.
 */
export interface DatabaseHost {
  host: string;
  port: number;
}

/**
 * What a session must be to be kept: `any` (the first host that accepts a connection, libpq's
 * default) or `read-write` (a host that is not in recovery and whose sessions are not read-only:
 * libpq's `read-write`, and its `primary`, which the service treats alike).
 */
export type SessionAttrs = 'any' | 'read-write';

export interface DatabaseTarget {
  readonly hosts: readonly DatabaseHost[];
  readonly sessionAttrs: SessionAttrs;
  /** A URL of one host, everything else as given (what node-postgres and MikroORM read). */
  urlOf(host: DatabaseHost): string;
  /** The hosts and the database, without credentials, for messages and logs. */
  readonly label: string;
}

const URL_FORM = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)([^?#]*)(\?[^#]*)?(#.*)?$/;
const ATTRS: Record<string, SessionAttrs> = { any: 'any', 'read-write': 'read-write', primary: 'read-write' };
const DEFAULT_PORT = 5432;

/** Parses `url`; an error names what is wrong with it (never the password). */
export function parseDatabaseUrl(url: string): DatabaseTarget {
  const m = URL_FORM.exec(url);
  if (!m) throw new Error('DATABASE_URL must be a postgresql:// URL');
  const [, scheme, userinfo, hostList, path, query = '', fragment = ''] = m;
  const params = new URLSearchParams(query.slice(1));
  const attrs = params.get('target_session_attrs') ?? 'any';
  const sessionAttrs = ATTRS[attrs];
  if (!sessionAttrs)
    throw new Error(
      `DATABASE_URL: target_session_attrs=${attrs} is not supported (use read-write, primary or any)`,
    );
  params.delete('target_session_attrs');
  const kept = params.toString();
  const rest = `${path}${kept ? `?${kept}` : ''}${fragment}`;
  const auth = userinfo === undefined ? '' : `${userinfo}@`;
  // One host (or a socket named in the query, `host=/run/postgresql`): the URL as given.
  if (!hostList.includes(',')) {
    const single = hostOf(hostList);
    return {
      hosts: [single],
      sessionAttrs,
      urlOf: () => `${scheme}${auth}${hostList}${rest}`,
      label: `${hostList || 'localhost'}${path}`,
    };
  }
  const hosts = hostList.split(',').map(hostOf);
  if (hosts.some((h) => !h.host)) throw new Error('DATABASE_URL: an empty host in the host list');
  const written = (h: DatabaseHost) => `${h.host.includes(':') ? `[${h.host}]` : h.host}:${h.port}`;
  return {
    hosts,
    sessionAttrs,
    urlOf: (h) => `${scheme}${auth}${written(h)}${rest}`,
    label: `${hosts.map(written).join(',')}${path}`,
  };
}

function hostOf(item: string): DatabaseHost {
  const m = /^(?:\[([^\]]+)\]|([^:]*))(?::(\d*))?$/.exec(item);
  if (!m) throw new Error(`DATABASE_URL: "${item}" is not a host[:port]`);
  const port = m[3] ? Number(m[3]) : DEFAULT_PORT;
  if (!(port > 0 && port < 65536)) throw new Error(`DATABASE_URL: "${item}" has no valid port`);
  return { host: decodeURIComponent(m[1] ?? m[2]), port };
}
