/** Where the REST facade and its documents are mounted. */
export const API_BASE = '/api/v1';

/** Where GraphQL is served: queries and mutations over HTTP, subscriptions over WebSocket. */
export const GRAPHQL_PATH = '/graphql';
