import { startServer, type TestServer, type TestTenant } from '../support/server';
import type { Client } from '../support/http';
import { expectErrorBody } from '../support/http';
import {
  audited,
  createCustomer,
  createOpportunity,
  createSubsidiary,
  eventLines,
  gql,
  gqlErrorStatus,
  ISO,
  statementsDuring,
  UNKNOWN_ID,
} from './support';

const CREATE = `mutation($input: LeadInput!) { createLead(input: $input) { id status subsidiaryId } }`;
const LEADS = `query($ids: [ID!]!) { leads(ids: $ids) { id } }`;

describe('Leads', () => {
  let server: TestServer;
  let a: TestTenant;
  let b: TestTenant;
  let north: string;
  let south: string;

  const createLead = async (client: Client, input: object = {}) =>
    (await gql(client, CREATE, { input })).createLead;
  const status = (client: Client, id: string, body: unknown) => client.patch(`/crm/leads/${id}/status`, body);
  const subsidiary = (client: Client, id: string, body: unknown) =>
    client.patch(`/crm/leads/${id}/subsidiary`, body);

  beforeAll(async () => {
    server = await startServer();
    a = await server.tenant('Leads A');
    b = await server.tenant('Leads B');
    north = await createSubsidiary(a.client, { name: 'North', color: '#00f' });
    south = await createSubsidiary(a.client, { name: 'South', color: '#f00' });
  });
  afterAll(() => server.close());

  it('a lead shows every documented field, with the derived customer, opportunity, owner and subsidiary', async () => {
    const customerId = await createCustomer(a.client, { name: 'Acme', email: 'hi@acme.test', phone: '010' });
    const opportunityId = await createOpportunity(a.client, { name: 'Windows', value: 999.99 });
    const lead = await createLead(a.client, {
      firstName: 'Lee',
      lastName: 'Prospect',
      companyName: 'Acme',
      email: 'lee@acme.test',
      source: 'WEBSITE',
      utmSource: 'newsletter',
      hasAcceptedQuote: true,
      nextActionDueDate: '2026-12-24T12:00:00Z',
      address: { street: 'Main', houseNumber: '1', city: 'Utrecht', latitude: 52.09 },
      customerId,
      opportunityId,
      ownerId: a.adminId,
      subsidiaryId: north,
    });
    // PATCHing the status it has returns the lead as REST shows it, without changing it.
    const res = await status(a.client, lead.id, { status: 'NEW' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...audited(a),
      id: lead.id,
      status: 'NEW',
      firstName: 'Lee',
      lastName: 'Prospect',
      companyName: 'Acme',
      companyWebsite: null,
      email: 'lee@acme.test',
      phone: null,
      industry: null,
      instagramHandle: null,
      interest: null,
      message: null,
      nextAction: null,
      nextActionDueDate: '2026-12-24T12:00:00.000Z',
      nextActionNotifiedAt: null,
      note: null,
      pageUrl: null,
      preferredLanguage: null,
      qualificationNotes: null,
      qualifiedBy: null,
      qualifiedDate: null,
      referrerUrl: null,
      source: 'WEBSITE',
      sourceDetail: null,
      utmCampaign: null,
      utmContent: null,
      utmMedium: null,
      utmSource: 'newsletter',
      utmTerm: null,
      hasAcceptedQuote: true,
      address: {
        city: 'Utrecht',
        country: null,
        houseNumber: '1',
        id: null,
        postalCode: null,
        street: 'Main',
        latitude: 52.09,
        longitude: null,
      },
      customerId,
      opportunityId,
      ownerId: a.adminId,
      subsidiaryId: north,
      customer: { email: 'hi@acme.test', id: customerId, name: 'Acme', phone: '010' },
      opportunity: { id: opportunityId, name: 'Windows', value: 999.99 },
      owner: { displayName: a.adminEmail, id: a.adminId, username: a.adminEmail },
      qualifiedByUser: null,
      subsidiary: { color: '#00f', id: north, name: 'North' },
    });
    expect(eventLines(res.body)).toEqual([expect.stringMatching(/^CREATE/)]);

    const bare = await status(a.client, (await createLead(a.client)).id, { status: 'NEW' });
    expect(bare.body).toMatchObject({
      status: 'NEW',
      address: null,
      customer: null,
      opportunity: null,
      owner: null,
      subsidiary: null,
      hasAcceptedQuote: false,
    });
  });

  it('PATCH /status moves to any status and appends STATUS_CHANGE "OLD -> NEW"', async () => {
    const lead = await createLead(a.client);
    const contacted = await status(a.client, lead.id, { status: 'CONTACTED', tenantId: b.tenantId });
    expect(contacted.status).toBe(200);
    expect(contacted.body.status).toBe('CONTACTED');
    expect(eventLines(contacted.body)).toEqual([
      expect.stringMatching(/^CREATE/),
      'STATUS_CHANGE: NEW -> CONTACTED',
    ]);
    expect(contacted.body.events[1]).toMatchObject({ authorId: a.adminId, date: expect.stringMatching(ISO) });
    const lost = await status(a.client, lead.id, { status: 'LOST' });
    const back = await status(a.client, lead.id, { status: 'NEW' });
    expect(lost.body.status).toBe('LOST');
    expect(eventLines(back.body).slice(1)).toEqual([
      'STATUS_CHANGE: NEW -> CONTACTED',
      'STATUS_CHANGE: CONTACTED -> LOST',
      'STATUS_CHANGE: LOST -> NEW',
    ]);
  });

  it('becoming QUALIFIED records who and when, once', async () => {
    const qualifier = await a.userWith(['UPDATE_LEADS', 'READ_LEADS'], { hasFullAccess: true });
    await server.orm.em
      .getConnection()
      .execute(`update app_user set first_name = 'Quinn' where id = ?`, [qualifier.userId]);
    const lead = await createLead(a.client);
    const q = await status(qualifier.client, lead.id, { status: 'QUALIFIED' });
    expect(q.status).toBe(200);
    expect(q.body).toMatchObject({
      status: 'QUALIFIED',
      qualifiedBy: qualifier.userId,
      qualifiedDate: expect.stringMatching(ISO),
      qualifiedByUser: { displayName: 'Quinn', id: qualifier.userId, username: qualifier.email },
    });
    expect(eventLines(q.body)).toContain('STATUS_CHANGE: NEW -> QUALIFIED');
    const later = await status(a.client, lead.id, { status: 'PROPOSAL' });
    const again = await status(a.client, lead.id, { status: 'QUALIFIED' });
    expect(later.body).toMatchObject({ qualifiedBy: qualifier.userId, qualifiedDate: q.body.qualifiedDate });
    expect(again.body).toMatchObject({ qualifiedBy: qualifier.userId, qualifiedDate: q.body.qualifiedDate });

    const preset = await createLead(a.client, { status: 'QUALIFIED', qualifiedDate: '2026-01-01T00:00:00Z' });
    const shown = await status(a.client, preset.id, { status: 'QUALIFIED' });
    expect(shown.body).toMatchObject({ qualifiedDate: '2026-01-01T00:00:00.000Z', qualifiedBy: a.adminId });
  });

  it('PATCH /status: the four errors: unknown lead 404, invalid status 400, no UPDATE_LEADS 403, (and malformed body 400)', async () => {
    const lead = await createLead(a.client);
    expectErrorBody(await status(a.client, UNKNOWN_ID, { status: 'WON' }), 404);
    expectErrorBody(await status(a.client, 'not-an-id', { status: 'WON' }), 404);
    const invalid = await status(a.client, lead.id, { status: 'MAYBE' });
    expectErrorBody(invalid, 400);
    expect(invalid.body.detail).toContain('status');
    expectErrorBody(await status(a.client, lead.id, {}), 400);
    expectErrorBody(await status(a.client, lead.id, { status: null }), 400);
    expectErrorBody(await status(a.client, lead.id, undefined), 400);
    const reader = await a.userWith(['READ_LEADS']);
    const denied = await status(reader.client, lead.id, { status: 'WON' });
    expectErrorBody(denied, 403);
    expect(denied.body.detail).toContain('UPDATE_LEADS');
    const unchanged = await gql(a.client, `query($id: ID!) { lead(id: $id) { status events { type } } }`, {
      id: lead.id,
    });
    expect(unchanged.lead).toEqual({ status: 'NEW', events: [{ type: 'CREATE' }] });
  });

  it('PATCH /subsidiary sets it with an UPDATE event; {} or null clears it', async () => {
    const lead = await createLead(a.client);
    const moved = await subsidiary(a.client, lead.id, { subsidiaryId: south });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({
      subsidiaryId: south,
      subsidiary: { id: south, name: 'South', color: '#f00' },
    });
    expect(eventLines(moved.body)).toEqual([
      expect.stringMatching(/^CREATE/),
      expect.stringMatching(/^UPDATE: .*subsidiaryId/),
    ]);
    const cleared = await subsidiary(a.client, lead.id, {});
    expect(cleared.status).toBe(200);
    expect(cleared.body).toMatchObject({ subsidiaryId: null, subsidiary: null });
    expect(cleared.body.events).toHaveLength(3);
    await subsidiary(a.client, lead.id, { subsidiaryId: north });
    const nulled = await subsidiary(a.client, lead.id, { subsidiaryId: null });
    expect(nulled.body.subsidiaryId).toBeNull();
  });

  it('PATCH /subsidiary: the four errors: unknown lead 404, no UPDATE_LEADS 403, unknown or out-of-scope subsidiary 404, bad body 400', async () => {
    const lead = await createLead(a.client);
    expectErrorBody(await subsidiary(a.client, UNKNOWN_ID, { subsidiaryId: north }), 404);
    expectErrorBody(await subsidiary(a.client, 'nope', {}), 404);
    for (const id of [UNKNOWN_ID, 'not-an-id', await createSubsidiary(b.client, { name: 'Foreign' })]) {
      const res = await subsidiary(a.client, lead.id, { subsidiaryId: id });
      expectErrorBody(res, 404);
      expect(res.body.detail).toContain('Subsidiary');
    }
    expectErrorBody(await subsidiary(a.client, lead.id, { subsidiaryId: 42 }), 400);
    expectErrorBody(await subsidiary(a.client, lead.id, undefined), 400);
    const reader = await a.userWith(['READ_LEADS']);
    expectErrorBody(await subsidiary(reader.client, lead.id, { subsidiaryId: north }), 403);

    // A user limited to North cannot move a lead into South: out of scope behaves as absent.
    const northOnly = await a.userWith(['UPDATE_LEADS', 'READ_LEADS'], { subsidiaryAccess: [north] });
    const outOfScope = await subsidiary(northOnly.client, lead.id, { subsidiaryId: south });
    expectErrorBody(outOfScope, 404);
    const fine = await subsidiary(northOnly.client, lead.id, { subsidiaryId: north });
    expect(fine.status).toBe(200);
    expect(fine.body.subsidiary.name).toBe('North');
  });

  it('a lead in a subsidiary is invisible to users without access to it', async () => {
    const inSouth = await createLead(a.client, { subsidiaryId: south, lastName: 'Southern' });
    const unassigned = await createLead(a.client, { lastName: 'Anywhere' });
    const northOnly = await a.userWith(['UPDATE_LEADS', 'READ_LEADS', 'CREATE_LEADS'], {
      subsidiaryAccess: [north],
    });
    expectErrorBody(await status(northOnly.client, inSouth.id, { status: 'WON' }), 404);
    expectErrorBody(await subsidiary(northOnly.client, inSouth.id, {}), 404);
    const seen = await gql(northOnly.client, LEADS, { ids: [inSouth.id, unassigned.id] });
    expect(seen.leads).toEqual([{ id: unassigned.id }]);
    expect(await gqlErrorStatus(northOnly.client, CREATE, { input: { subsidiaryId: south } })).toBe(403);
    expect((await status(a.client, inSouth.id, { status: 'NEW' })).status).toBe(200);
  });

  it('GraphQL has the whole family for leads; references must exist', async () => {
    const lead = await createLead(a.client, { firstName: 'Graph', email: 'graph@ql.test' });
    const updated = await gql(
      a.client,
      `mutation($id: ID!, $input: LeadInput!) { updateLead(id: $id, input: $input) { note status events { type description } } }`,
      { id: lead.id, input: { note: 'Called twice', status: 'CONTACTED' } },
    );
    expect(eventLines(updated.updateLead).slice(1)).toEqual([
      'STATUS_CHANGE: NEW -> CONTACTED',
      'UPDATE: Updated note',
    ]);
    const search = await gql(
      a.client,
      `query { searchLeads(input: { search: ["graph@"], filters: [{ field: "status", op: eq, value: "CONTACTED" }] }) { totalElements content { id owner { id } } } }`,
    );
    expect(search.searchLeads.content.map((l: any) => l.id)).toEqual([lead.id]);
    for (const field of ['customerId', 'opportunityId', 'ownerId', 'qualifiedBy', 'subsidiaryId'])
      expect(await gqlErrorStatus(a.client, CREATE, { input: { [field]: UNKNOWN_ID } })).toBe(404);
    expect(await gqlErrorStatus(a.client, CREATE, { input: { email: 'not-mail' } })).toBe(400);
    const deleted = await gql(a.client, `mutation($id: ID!) { deleteLead(id: $id) }`, { id: lead.id });
    expect(deleted.deleteLead).toBe(true);
    expectErrorBody(await status(a.client, lead.id, { status: 'WON' }), 404);
  });

  it('the derived fields of a page cost one statement per related kind, whatever the page size', async () => {
    const t = await server.tenant('Lead batching');
    for (let i = 0; i < 10; i++) {
      const customerId = await createCustomer(t.client, { name: `C${i}` });
      const subsidiaryId = await createSubsidiary(t.client, { name: `S${i}` });
      await createLead(t.client, {
        lastName: `L${i}`,
        customerId,
        subsidiaryId,
        ownerId: t.adminId,
        status: 'QUALIFIED',
      });
    }
    let data: any;
    const sql = await statementsDuring(async () => {
      data = await gql(
        t.client,
        `query { searchLeads(input: { size: 50 }) { content { customer { name } subsidiary { name } owner { id } qualifiedByUser { id } opportunity { id } } } }`,
      );
    });
    expect(data.searchLeads.content).toHaveLength(10);
    expect(new Set(data.searchLeads.content.map((l: any) => l.subsidiary.name)).size).toBe(10);
    const from = (table: string) => sql.filter((l) => new RegExp(`from "${table}"`).test(l)).length;
    expect(from('customer')).toBe(1);
    expect(from('subsidiary')).toBe(1);
    expect(from('opportunity')).toBe(0);
    expect(from('app_user')).toBeLessThanOrEqual(2);
  });

  it('tenant isolation: another tenant can neither change, read nor delete a lead', async () => {
    const lead = await createLead(a.client, { lastName: 'Private' });
    expectErrorBody(await status(b.client, lead.id, { status: 'WON' }), 404);
    expectErrorBody(await subsidiary(b.client, lead.id, {}), 404);
    expect((await gql(b.client, LEADS, { ids: [lead.id] })).leads).toEqual([]);
    expect((await gql(b.client, `query { allLeads { id } }`)).allLeads).toEqual([]);
    expect(
      (await gql(b.client, `mutation($id: ID!) { deleteLead(id: $id) }`, { id: lead.id })).deleteLead,
    ).toBe(false);
    const csv = await gql(b.client, `query { exportLeadsCsv }`);
    expect(csv.exportLeadsCsv).not.toContain(lead.id);
    expect((await status(a.client, lead.id, { status: 'NEW' })).body.lastName).toBe('Private');
  });
});
