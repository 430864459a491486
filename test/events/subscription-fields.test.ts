import { createClient, type Client as WsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * Every field of every type a subscription pushes resolves as a query resolves it: the selection
 * is made from the schema the service publishes (introspection), every field of the pushed record
 * and of what it holds, and sent over the WebSocket transport with a real graphql-ws client.
 */

/** A type reference as introspection gives it, three wrappers deep at most (`[T!]!`). */
interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}
interface IntrospectedField {
  name: string;
  args: { name: string; type: TypeRef; defaultValue: string | null }[];
  type: TypeRef;
}
interface IntrospectedType {
  kind: string;
  name: string;
  fields: IntrospectedField[] | null;
}

const TYPE_REF = 'kind name ofType { kind name ofType { kind name ofType { kind name } } }';
// graphql's own introspection query nests type references deeper than the depth limit allows.
const INTROSPECTION = `{ __schema {
  subscriptionType { name }
  types { kind name fields { name args { name defaultValue type { ${TYPE_REF} } } type { ${TYPE_REF} } } }
} }`;

const named = (ref: TypeRef): TypeRef => (ref.ofType ? named(ref.ofType) : ref);

/** The selection of every field of `type`, each object type once along a path (no cycles). */
function everyField(
  types: Map<string, IntrospectedType>,
  type: IntrospectedType,
  path: readonly string[],
): string {
  const parts: string[] = [];
  for (const field of type.fields ?? []) {
    // A field whose argument is required cannot be selected without a value; none has one today.
    if (field.args.some((a) => a.type.kind === 'NON_NULL' && a.defaultValue === null))
      throw new Error(`${type.name}.${field.name} needs an argument this test does not know`);
    const of = types.get(named(field.type).name!)!;
    if (of.kind === 'SCALAR' || of.kind === 'ENUM') parts.push(field.name);
    else if (of.kind === 'OBJECT' && !path.includes(of.name))
      parts.push(`${field.name} { ${everyField(types, of, [...path, type.name])} }`);
    else parts.push(`${field.name} { __typename }`);
  }
  return parts.join(' ');
}

/** One document per subscription field, selecting every field of what it pushes. */
function subscriptionDocuments(schema: {
  subscriptionType: { name: string };
  types: IntrospectedType[];
}): Map<string, string> {
  const types = new Map(schema.types.map((t) => [t.name, t]));
  const documents = new Map<string, string>();
  for (const field of types.get(schema.subscriptionType.name)!.fields!) {
    const pushed = types.get(named(field.type).name!)!;
    documents.set(field.name, `subscription { ${field.name} { ${everyField(types, pushed, [])} } }`);
  }
  return documents;
}

interface Pushed {
  data?: Record<string, any> | null;
  errors?: unknown[];
}

/** The first result a subscription pushes, errors included. */
function firstResult(client: WsClient, query: string): { result: Promise<Pushed>; stop: () => void } {
  let stop: () => void = () => undefined;
  const result = new Promise<Pushed>((resolve, reject) => {
    stop = client.subscribe<Record<string, any>>(
      { query },
      { next: (r) => resolve(r as Pushed), error: reject, complete: () => reject(new Error('ended')) },
    );
  });
  return { result, stop };
}

describe('subscriptions resolve every field of what they push', () => {
  let server: TestServer;
  let tenant: TestTenant;
  let client: WsClient;

  beforeAll(async () => {
    server = await startServer();
    tenant = await server.tenant('Live fields');
  }, 120_000);
  afterAll(async () => {
    await client?.dispose();
    await server.close();
  });

  it('answers every field of every subscribable type, history and events included', async () => {
    const introspection = await tenant.client.graphql(INTROSPECTION);
    expect(introspection.body.errors).toBeUndefined();
    const documents = subscriptionDocuments(introspection.body.data.__schema);
    // What the schema holds today; a new subscription needs its event made below.
    expect([...documents.keys()].sort()).toEqual(['notificationAdded', 'recordChanged']);
    expect(documents.get('notificationAdded')).toContain('history {');
    expect(documents.get('notificationAdded')).toContain('events {');

    client = createClient({
      url: `${server.baseUrl.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      lazy: false,
      retryAttempts: 0,
      connectionParams: { Authorization: `Bearer ${tenant.token}` },
      onNonLazyError: () => undefined,
    });
    const before = server.app.live.subscriptionCount;
    const notification = firstResult(client, documents.get('notificationAdded')!);
    const record = firstResult(client, documents.get('recordChanged')!);
    for (let i = 0; i < 500 && server.app.live.subscriptionCount < before + 2; i++)
      await new Promise((r) => setTimeout(r, 20));
    expect(server.app.live.subscriptionCount).toBe(before + 2);

    const feature = await tenant.client.post('/hr/features', { name: 'Pushed whole', status: 'READY' });
    expect(feature.status).toBe(201);
    const sent = await tenant.client.post('/notifications', {
      title: 'Every field',
      username: tenant.adminEmail,
      category: 'ERP',
    });
    expect(sent.status).toBe(201);

    const pushed = await notification.result;
    expect(pushed.errors).toBeUndefined();
    const added = pushed.data!.notificationAdded;
    expect(added).toMatchObject({ id: sent.body.id, title: 'Every field', tenantId: tenant.tenantId });
    expect(added.events.map((e: { type: string }) => e.type)).toEqual(['CREATE']);
    expect(added.history.content).toHaveLength(1);
    expect(added.history.content[0]).toMatchObject({ recordId: sent.body.id, type: 'CREATE' });

    const changed = await record.result;
    expect(changed.errors).toBeUndefined();
    expect(changed.data!.recordChanged).toMatchObject({
      type: 'feature.created',
      resource: { type: 'feature', id: feature.body.id },
    });
    notification.stop();
    record.stop();
  });
});
