import type { Response } from 'express';
import { classify } from '../error-mapping';
import { errorBody, type Problem } from '../errors';
import type { Logger } from '../logger';

/** Sends an error in the documented body; 401s also say how to authenticate. */
export function sendError(res: Response, status: number, detail: string, errors?: Problem[]): void {
  if (res.headersSent) return;
  if (status === 401) res.setHeader('WWW-Authenticate', 'Bearer');
  if (status === 503 || status === 429) res.setHeader('Retry-After', res.getHeader('Retry-After') ?? '5');
  res
    .status(status)
    .json(errorBody(status, detail, res.locals.requestId as string | undefined, undefined, errors));
}

export function sendCaught(res: Response, err: unknown, logger: Logger): void {
  const { status, detail, expected, errors } = classify(err);
  if (!expected) logger.error({ err, requestId: res.locals.requestId }, 'unexpected error');
  sendError(res, status, detail, errors);
}
