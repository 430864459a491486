import type { Client } from '../support/http';
import type { TestTenant } from '../support/server';

export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const UNKNOWN_ID = '6a1e7d1c-3b0b-4a7e-9d6f-0000000000c1';

/** The audit fields and history every CRM record carries. */
export function audited(tenant: TestTenant) {
  return {
    id: expect.stringMatching(UUID),
    tenantId: tenant.tenantId,
    created: expect.stringMatching(ISO),
    createdBy: expect.any(String),
    updated: expect.stringMatching(ISO),
    updatedBy: expect.any(String),
    events: expect.any(Array),
  };
}

/** Runs a GraphQL operation that must succeed; returns its data. */
export async function gql<T = any>(
  client: Client,
  query: string,
  variables?: Record<string, unknown>,
): Promise<T> {
  const res = await client.graphql<T>(query, variables);
  expect(res.body.errors).toBeUndefined();
  return res.body.data as T;
}

/** The status a failed GraphQL operation reports (extensions.status). */
export async function gqlErrorStatus(
  client: Client,
  query: string,
  variables?: Record<string, unknown>,
): Promise<number | undefined> {
  const res = await client.graphql(query, variables);
  expect(res.body.errors?.length).toBeGreaterThan(0);
  return res.body.errors?.[0].extensions?.status;
}

export async function createCustomer(client: Client, input: object): Promise<string> {
  const data = await gql(
    client,
    `mutation($input: CustomerInput!) { createCustomer(input: $input) { id } }`,
    {
      input,
    },
  );
  return data.createCustomer.id;
}

export async function createOpportunity(client: Client, input: object): Promise<string> {
  const data = await gql(
    client,
    `mutation($input: OpportunityInput!) { createOpportunity(input: $input) { id } }`,
    { input },
  );
  return data.createOpportunity.id;
}

export async function createSubsidiary(client: Client, input: object): Promise<string> {
  const data = await gql(
    client,
    `mutation($input: SubsidiaryInput!) { createSubsidiary(input: $input) { id } }`,
    { input },
  );
  return data.createSubsidiary.id;
}

export async function createEmployee(client: Client, input: object): Promise<string> {
  const data = await gql(
    client,
    `mutation($input: EmployeeInput!) { createEmployee(input: $input) { id } }`,
    {
      input,
    },
  );
  return data.createEmployee.id;
}

/** The events of a record, as `TYPE: description`. */
export const eventLines = (record: { events: { type: string; description: string | null }[] }) =>
  record.events.map((e) => `${e.type}: ${e.description ?? ''}`);

export { statementsDuring } from '../support/statements';
