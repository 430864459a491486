/**
 * Descriptions that many places of the GraphQL schema share, written once: the standard fields
 * every record carries and the arguments every group's family of operations takes. A place with
 * a meaning of its own keeps its description next to its declaration.
 */

/** The standard fields of every record (entities/tenant-scoped.ts and records shaped alike). */
export const AUDIT_DOCS = {
  tenantId:
    "The tenant the record belongs to; always the caller's tenant (a tenantId sent in a body is ignored).",
  id: 'The unique id of the record (a UUID).',
  created: 'When the record was created (ISO 8601, UTC).',
  createdBy: 'E-mail of the user who created the record.',
  updated: 'When the record was last changed (ISO 8601, UTC).',
  updatedBy: 'E-mail of the user who last changed the record.',
  events:
    'The latest entries of the history of the record (at most 100), oldest first: CREATE, UPDATE (naming the changed fields), STATUS_CHANGE, DELETE, RESTORE. The field `history` pages through all of it, with the values before and after.',
} as const;

/** Arguments of the standard family (family/resolver.ts) and of the lists shaped like it. */
export const ARG_DOCS = {
  id: 'Id of the record; unknown, out of scope or of another tenant behaves as absent.',
  ids: 'Ids of the records (at most 1000); unknown ids are skipped.',
  pageNumber: '0-based page number (default 0).',
  pageSize: 'Records per page (default 20, at most 1000).',
  sortBy: 'A sortable field of the record to sort by (default: creation order).',
  direction: 'Sort direction (default ASC).',
  search: 'Text that must occur (case-insensitively) in one of the searchable text fields.',
  searchInput: 'Terms, filters, sort and paging; absent means the first page of everything.',
} as const;

/** The root types, which type-graphql builds without a description (app-schema.ts). */
export const ROOT_DOCS = {
  query:
    "Reads. Every field needs a credential, and most the READ permission of their resource (a caller's own records need only the credential); records of other tenants and out of the caller's scope behave as absent.",
  mutation:
    "Writes. Every field needs a credential, and most the CREATE, UPDATE or DELETE permission of their resource (a caller's own records need only the credential).",
  subscription:
    'Live events over WebSocket at /graphql (graphql-transport-ws; the credential goes in connection_init). Each event passes the same permission and scope rules as a query would.',
} as const;

/** `a Feature`, `an Invoice`: the article a generated description puts before a type's name. */
export const withArticle = (name: string): string => `${/^[aeio]/i.test(name) ? 'an' : 'a'} ${name}`;
