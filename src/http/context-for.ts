import type { Request, Response } from 'express';
import type { Context } from '../context';

/**
 * The request's context from its credential, its transaction open. `optimistic`: a remembered
 * caller may be used before it is checked (auth/authenticate.ts); the transaction's end then
 * throws StaleCaller if it had changed.
 */
export type ContextFor = (req: Request, res: Response, optimistic?: boolean) => Promise<Context>;
