/**
 * A steady write load on a running service, for the backup tests: writers creating leads one
 * after the other through GraphQL, each acknowledged write noted with the time it was sent.
 */
export interface Acked {
  id: string;
  sent: number;
}

/** A moment of the load: how many writes had been acknowledged by then, and the time. */
export interface LoadMark {
  acked: number;
  at: number;
}

export async function graphqlAt(port: number, token: string, query: string, variables: object = {}) {
  const res = await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const text = await res.text();
  try {
    return JSON.parse(text) as { data?: any; errors?: unknown[] };
  } catch {
    return { errors: [`HTTP ${res.status}: ${text.slice(0, 200)}`] };
  }
}

export function writeLoad(port: number, token: string, writers = 2) {
  const acked: Acked[] = [];
  let writing = true;
  const writer = async (name: string) => {
    for (let i = 0; writing; i++) {
      const sent = Date.now();
      const res = await graphqlAt(port, token, 'mutation($i: LeadInput!) { createLead(input: $i) { id } }', {
        i: { lastName: `${name}-${i}` },
      });
      if (res.errors || !res.data) throw new Error(JSON.stringify(res));
      acked.push({ id: res.data.createLead.id, sent });
    }
  };
  let failed: unknown;
  const running = Array.from({ length: writers }, (_, n) =>
    writer(`w${n}`).catch((err: unknown) => {
      failed ??= err;
      throw err;
    }),
  );
  // A writer that failed fails whoever waits for more writes, rather than leaving them waiting.
  for (const r of running) r.catch(() => undefined);
  const until = async (done: () => boolean) => {
    while (!done()) {
      if (failed) throw failed;
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const sentAfter = (mark: LoadMark) => acked.filter((w) => w.sent > mark.at).map((w) => w.id);
  return {
    /** Resolves once `count` writes more than now have been acknowledged. */
    async more(count: number) {
      const target = acked.length + count;
      await until(() => acked.length >= target);
    },
    /** Now, as a mark to tell the writes before it from those after it. */
    mark: (): LoadMark => ({ acked: acked.length, at: Date.now() }),
    /** The writes acknowledged before `mark`: a backup begun after it holds them all. */
    ackedBefore: (mark: LoadMark) => acked.slice(0, mark.acked).map((w) => w.id),
    /**
     * The writes sent after `mark`: a backup that had ended by then holds none of them. (A write
     * acknowledged after it may have been sent, and committed, before it.)
     */
    sentAfter,
    /** Resolves once `count` writes sent after `mark` have been acknowledged. */
    async sentSince(mark: LoadMark, count: number) {
      await until(() => sentAfter(mark).length >= count);
    },
    async stop() {
      writing = false;
      await Promise.all(running);
    },
  };
}

/** The ids among `ids` whose lead exists, asked 20 at a time (the service's alias limit). */
export async function presentLeads(port: number, token: string, ids: string[]): Promise<string[]> {
  const found: string[] = [];
  for (let at = 0; at < ids.length; at += 20) {
    const chunk = ids.slice(at, at + 20);
    const res = await graphqlAt(
      port,
      token,
      `{ ${chunk.map((id, n) => `l${n}: lead(id: "${id}") { id }`).join(' ')} }`,
    );
    if (res.errors) throw new Error(JSON.stringify(res.errors));
    found.push(...chunk.filter((_id, n) => res.data[`l${n}`] !== null));
  }
  return found;
}
