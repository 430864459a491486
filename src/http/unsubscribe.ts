import express, { type Request, type Response, Router } from 'express';
import type { MikroORM } from '@mikro-orm/core';
import { unsubscribeFromDigests, UnsubscribeTokenError, verifyUnsubscribeToken } from '../events/digest';
import type { Logger } from '../logger';
import { sendError } from './send-error';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

const page = (title: string, body: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title></head>` +
  `<body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;

/**
 * The unsubscribe link of a digest, which works without signing in: its token is signed by the
 * service (events/digest.ts) and names the tenant and user. A GET (what a click, or a mail
 * scanner following links, does) only shows a button; the POST of that button, or the one-click
 * POST of RFC 8058 a mail program makes from the List-Unsubscribe-Post header, turns digests off.
 * A forged, altered or expired token is a 400 saying so (HTML for browsers, the error body
 * otherwise), and changes nothing.
 */
export function unsubscribeRouter(orm: MikroORM, secret: string, logger: Logger): Router {
  const router = Router();
  const tokenOf = (req: Request) => (typeof req.query.token === 'string' ? req.query.token : '');
  const refuse = (res: Response, detail: string) =>
    res.format({
      html: () => {
        res.status(400).setHeader('Content-Security-Policy', "default-src 'none'");
        res.send(page('This link does not work', `<p>${escapeHtml(detail)}</p>`));
      },
      default: () => sendError(res, 400, detail),
    });
  const checked = async (req: Request, res: Response) => {
    try {
      return await verifyUnsubscribeToken(secret, tokenOf(req));
    } catch (err) {
      if (!(err instanceof UnsubscribeTokenError)) throw err;
      refuse(res, err.message);
      return undefined;
    }
  };

  router.get('/unsubscribe', async (req, res, next) => {
    try {
      if (!(await checked(req, res))) return;
      res.setHeader('Content-Security-Policy', "default-src 'none'; form-action 'self'");
      res.format({
        html: () =>
          res.send(
            page(
              'Stop e-mail summaries?',
              `<form method="post" action="?token=${encodeURIComponent(tokenOf(req))}">` +
                `<button type="submit">Stop my notification summaries</button></form>`,
            ),
          ),
        default: () => res.json({ valid: true, unsubscribe: 'POST this URL' }),
      });
    } catch (err) {
      next(err);
    }
  });

  router.post(
    '/unsubscribe',
    express.urlencoded({ extended: false, limit: '1kb' }),
    async (req, res, next) => {
      try {
        const who = await checked(req, res);
        if (!who) return;
        const changed = await unsubscribeFromDigests(orm, who.tenantId, who.userId);
        logger.info(
          { tenantId: who.tenantId, userId: who.userId, changed },
          'digests turned off by unsubscribe link',
        );
        res.setHeader('Content-Security-Policy', "default-src 'none'");
        res.format({
          html: () => res.send(page('Done', '<p>You will receive no more notification summaries.</p>')),
          default: () => res.json({ unsubscribed: true }),
        });
      } catch (err) {
        next(err);
      }
    },
  );
  return router;
}
