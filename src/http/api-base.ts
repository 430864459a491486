/** Where the REST facade and its documents are mounted. */
export const API_BASE = '/api/v1';
