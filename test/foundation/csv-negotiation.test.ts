import { restTable } from '../../src/rest/table';
import { Client } from '../support/http';
import { startServer, type TestServer, type TestTenant } from '../support/server';

/**
 * CSV exports answer a JSON string by default (as documented) and the CSV itself, as a file, to
 * a client that asks for `text/csv`; every csv-export row of the REST table is swept.
 */
describe('CSV export content negotiation', () => {
  let server: TestServer;
  let t: TestTenant;
  const csvRows = restTable.filter((r) => r.path.endsWith('/csv-export'));

  beforeAll(async () => {
    server = await startServer();
    t = await server.tenant('Csv');
    for (const name of ['Row, "house"', '=cmd'])
      expect((await t.client.post('/hr/features', { name, status: 'READY' })).status).toBe(201);
  });
  afterAll(() => server.close());

  it('answers the same CSV as a JSON string by default and as text/csv when asked', async () => {
    const asJson = await t.client.get('/hr/features/csv-export?sort=name,asc');
    expect(asJson.status).toBe(200);
    expect(asJson.headers.get('content-type')).toMatch(/^application\/json/);
    expect(asJson.headers.get('content-disposition')).toBeNull();
    expect(asJson.headers.get('vary')).toMatch(/Accept/i);
    expect(typeof asJson.body).toBe('string');

    const asCsv = await t.client.get('/hr/features/csv-export?sort=name,asc', { accept: 'text/csv' });
    expect(asCsv.status).toBe(200);
    expect(asCsv.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(asCsv.headers.get('content-disposition')).toBe('attachment; filename="features.csv"');
    expect(asCsv.headers.get('vary')).toMatch(/Accept/i);
    expect(asCsv.text).toBe(asJson.body);
    expect(asCsv.text).toContain('"Row, ""house"""');
    expect(asCsv.text).toContain(`'=cmd`);
    expect(asCsv.text.split('\r\n')[0]).toMatch(/(^|,)id,.*,name,/);
  });

  it('keeps JSON for */*, for no preference and when JSON ranks higher; CSV when CSV ranks higher', async () => {
    const kind = async (accept?: string) => {
      const res = await t.client.get('/hr/features/csv-export', accept ? { accept } : {});
      expect(res.status).toBe(200);
      return res.headers.get('content-type')!.split(';')[0];
    };
    expect(await kind()).toBe('application/json');
    expect(await kind('*/*')).toBe('application/json');
    expect(await kind('application/json')).toBe('application/json');
    expect(await kind('text/csv;q=0.5, application/json')).toBe('application/json');
    expect(await kind('text/*')).toBe('text/csv');
    expect(await kind('application/json;q=0.5, text/csv')).toBe('text/csv');
  });

  it('errors stay in the documented JSON body when text/csv is asked for', async () => {
    const res = await new Client(server.baseUrl).get('/hr/features/csv-export', { accept: 'text/csv' });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const bad = await t.client.get('/hr/features/csv-export?sort=nope,asc', { accept: 'text/csv' });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toContain('nope');
  });

  it('every csv-export operation answers text/csv with a file named after its group', async () => {
    expect(csvRows.length).toBeGreaterThan(10);
    for (const row of csvRows) {
      const res = await t.client.get(row.path, { accept: 'text/csv' });
      const name = row.path.split('/').slice(-2)[0];
      expect([row.path, res.status, res.headers.get('content-type')]).toEqual([
        row.path,
        200,
        'text/csv; charset=utf-8',
      ]);
      expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${name}.csv"`);
      // The records' history is read through its own operations, never a column of the export.
      const header = res.text.split('\r\n')[0].split(',');
      expect({
        path: row.path,
        events: header.filter((h) => h === 'events' || h.startsWith('events.')),
      }).toEqual({
        path: row.path,
        events: [],
      });
    }
  });

  it('the OpenAPI document describes both media types for every csv-export operation', async () => {
    const doc = (await t.client.get('/openapi.json')).body;
    for (const row of csvRows) {
      const ok = doc.paths[row.path].get.responses['200'];
      expect(Object.keys(ok.content).sort()).toEqual(['application/json', 'text/csv']);
      expect(ok.content['application/json'].schema.type).toBe('string');
      const name = row.path.split('/').slice(-2)[0];
      expect(ok.content['text/csv'].schema.description).toContain(`filename="${name}.csv"`);
    }
  });
});
