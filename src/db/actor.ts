/** Who is writing through an EntityManager fork (set per request, read by the subscriber). */
export interface Actor {
  tenantId: string;
  userId: string | null;
  email: string;
  /** The API key the request authenticated with, when it did (the history names it). */
  apiKeyId?: string | null;
  /** The request's X-Request-Id (absent for jobs and tools). */
  requestId?: string | null;
}
