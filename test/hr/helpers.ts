import type { Client } from '../support/http';

/** Shared by the HR tests: shapes, and records only GraphQL can make (employees, tasks). */
export const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const UNKNOWN_ID = '6a1e7d1c-3b0b-4a7e-9d6f-000000000abc';

export const AUDIT_KEYS = ['tenantId', 'id', 'created', 'createdBy', 'updated', 'updatedBy', 'events'];

export const FEATURE_KEYS = [
  ...AUDIT_KEYS,
  'name',
  'description',
  'epicId',
  'epic',
  'priority',
  'status',
  'tags',
  'estimatedPoints',
  'taskCount',
  'completedTaskCount',
  'progress',
];
export const TEAM_KEYS = [
  ...AUDIT_KEYS,
  'name',
  'description',
  'color',
  'dailyCapacity',
  'memberIds',
  'members',
  'status',
];
export const EPIC_KEYS = [
  ...AUDIT_KEYS,
  'name',
  'description',
  'color',
  'ownerId',
  'projectId',
  'owner',
  'priority',
  'status',
  'tags',
  'targetStartDate',
  'targetEndDate',
  'featureCount',
  'taskCount',
  'completedTaskCount',
  'progress',
];
export const PROJECT_KEYS = [
  ...AUDIT_KEYS,
  'name',
  'code',
  'description',
  'color',
  'clientId',
  'leadId',
  'lead',
  'teamMembers',
  'status',
  'tags',
  'teamMemberIds',
  'startDate',
  'endDate',
  'defaultSprintDurationDays',
  'hourlyRate',
  'picture',
  'epicCount',
  'taskCount',
  'completedTaskCount',
  'progress',
];

/** Every documented field is present (null when absent), and nothing else. */
export function expectKeys(record: Record<string, unknown>, keys: string[]): void {
  expect(Object.keys(record).sort()).toEqual([...keys].sort());
  expect(record.id).toMatch(UUID);
  expect(record.tenantId).toMatch(UUID);
  expect(record.created).toMatch(ISO);
  expect(record.updated).toMatch(ISO);
  expect(Array.isArray(record.events)).toBe(true);
}

export function eventTypes(record: { events: { type: string }[] }): string[] {
  return record.events.map((e) => e.type);
}

export async function gql<T = any>(client: Client, query: string, variables?: object): Promise<T> {
  const res = await client.graphql(query, variables as Record<string, unknown>);
  expect(res.body.errors).toBeUndefined();
  return res.body.data as T;
}

export interface EmployeeData {
  firstName?: string;
  lastName?: string;
  email?: string;
  jobTitle?: string;
  department?: string;
  avatar?: string;
}

export async function createEmployee(client: Client, input: EmployeeData): Promise<string> {
  const data = await gql(client, `mutation($i: EmployeeInput!) { createEmployee(input: $i) { id } }`, {
    i: input,
  });
  return data.createEmployee.id;
}

export interface TaskData {
  title: string;
  status?: string;
  featureId?: string | null;
  epicId?: string | null;
  projectId?: string | null;
  assigneeId?: string | null;
}

export const TASK_FIELDS =
  'id title status featureId epicId projectId assigneeId events { type description }';

export async function createTask(client: Client, input: TaskData): Promise<any> {
  const data = await gql(
    client,
    `mutation($i: CreateTaskInput!) { createTask(input: $i) { ${TASK_FIELDS} } }`,
    {
      i: input,
    },
  );
  return data.createTask;
}

/** Creates in order, to keep `created` (the default sort) in the order given. */
export async function postAll(client: Client, path: string, bodies: object[]): Promise<any[]> {
  const out: any[] = [];
  for (const body of bodies) {
    const res = await client.post(path, body);
    expect(res.status).toBe(201);
    out.push(res.body);
  }
  return out;
}
