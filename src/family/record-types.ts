import { isObjectType, type GraphQLObjectType, type GraphQLSchema } from 'graphql';

/**
 * The GraphQL object type of each entity, as the schema built it: the record's documented shape,
 * from which its filterable, sortable and exported fields are derived (fields.ts). Recorded when
 * the schema is built, since the family's services are made before it.
 */
const types = new Map<string, GraphQLObjectType>();

export function registerRecordTypes(schema: GraphQLSchema, entityNames: readonly string[]): void {
  for (const name of entityNames) {
    const type = schema.getType(name);
    if (isObjectType(type)) types.set(name, type);
  }
}

export function recordType(entityName: string): GraphQLObjectType {
  const type = types.get(entityName);
  if (!type) throw new Error(`${entityName}: the GraphQL schema has not been built yet`);
  return type;
}

/** Whether `name` is a group's record (its searches filter on its documented fields). */
export const isRecordType = (name: string): boolean => types.has(name);
