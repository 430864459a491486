import express, { type NextFunction, type Request, type Response, Router } from 'express';
import type { EntityManager, MikroORM } from '@mikro-orm/core';
import { AppError, badRequest, forbidden, notFound } from '../../../errors';
import { withTenant } from '../../../db/tenant-transaction';
import { isUuid } from '../../../limits';
import type { Logger } from '../../../logger';
import {
  activeWidget,
  checkSubmission,
  checkVisit,
  leadFromSubmission,
  originAllowed,
  tenantOpen,
} from '../public-forms';
import {
  bookablePerson,
  bookSlot,
  cancelByToken,
  checkBookingRequest,
  checkCancelToken,
  freeSlots,
  MAX_DAYS,
  SLOT_MINUTES,
} from '../public-bookings';
import type { ContactFormWidgetConfig } from '../entities/contact-form-widget';
import { eventSettings } from '../../../events/settings';
import {
  addressKey,
  apiContentSecurityPolicy,
  keyedLimiter,
  PUBLIC_LIMITS,
  type RateLimits,
} from '../../../http/hardening';
import { sendCaught, sendError } from '../../../http/send-error';
import { API_BASE } from '../../../http/api-base';
import { HONEYPOT_FIELD } from '../honeypot';

/** Where the routes that need no credential live, under the API's base. */
export const PUBLIC_PATH = '/public';

/**
 * The public front office: what a visitor's browser (or a site's server) sends without any
 * credential. The tenant is named by the `tenant` query parameter (its id), since a widget's slug
 * is unique only within its tenant; everything is then read and written in a transaction of that
 * tenant as the application role, so row-level security holds, and a slug or token of another
 * tenant is simply not there (404, the same answer as an unknown one). CORS is the widget's own
 * (its `allowedOrigins`), not the service's CORS_ORIGINS.
 */
export function publicFrontOfficeRouter(orm: MikroORM, limits: RateLimits, logger: Logger): Router {
  const router = Router();
  // The confirmation's cancel link and sender: the service's public address, as digests use it.
  const events = eventSettings(process.env);
  const mailSettings = { apiUrl: `${events.publicUrl}${API_BASE}`, mailFrom: events.mailFrom };
  const perAddress = keyedLimiter(
    limits,
    'public-address',
    limits.publicPerAddress ?? PUBLIC_LIMITS.perAddress,
  );
  const perWidget = keyedLimiter(limits, 'public-widget', limits.publicPerWidget ?? PUBLIC_LIMITS.perWidget);
  const asVisitor = <R>(req: Request, work: (em: EntityManager) => Promise<R>): Promise<R> => {
    const tenantId = typeof req.query.tenant === 'string' ? req.query.tenant : '';
    if (!isUuid(tenantId)) return Promise.reject(notFound('there is no such contact form'));
    return withTenant(orm.em, { tenantId, userId: null, email: 'public-form' }, async (em) => {
      if (!(await tenantOpen(em, tenantId))) throw notFound('there is no such contact form');
      return work(em);
    });
  };
  const route =
    (pattern: string, handle: (req: Request, res: Response) => Promise<void>) =>
    async (req: Request, res: Response) => {
      res.locals.route = pattern;
      try {
        await handle(req, res);
      } catch (err) {
        sendCaught(res, err, logger);
      }
    };

  router.use(PUBLIC_PATH, apiContentSecurityPolicy);

  // A browser asks before a cross-origin JSON POST: the widget's origins say yes, nobody else.
  router.options(
    [
      `${PUBLIC_PATH}/contact-forms/:slug`,
      `${PUBLIC_PATH}/bookings/:slug`,
      `${PUBLIC_PATH}/bookings/:slug/slots`,
    ],
    route('OPTIONS /public/{widget}', async (req, res) => {
      await perAddress(res, addressKey(req));
      const widget = await findForCors(req);
      if (widget) allowOrigin(req, res, widget);
      res.status(204).end();
    }),
  );

  router.post(
    `${PUBLIC_PATH}/contact-forms/:slug`,
    express.json({ limit: '64kb' }),
    route('POST /public/contact-forms/{slug}', async (req, res) => {
      await perAddress(res, addressKey(req));
      const body = bodyOf(req);
      // What needs no widget is checked first, so a malformed body is a 400 whatever the slug.
      const visit = checkVisit(body);
      const message = await asVisitor(req, async (em) => {
        const widget = await activeWidget(em, String(req.params.slug));
        if (req.headers.origin !== undefined && !originAllowed(widget, req.headers.origin))
          throw forbidden(`origin ${req.headers.origin} may not send this form`);
        allowOrigin(req, res, widget);
        await perWidget(res, `${widget.tenantId}:${widget.id}`);
        const confirmation = widget.confirmationMessage ?? 'Thank you, we will be in touch.';
        // A bot is told what a person is, so it learns nothing; nothing is stored.
        if (typeof body[HONEYPOT_FIELD] === 'string' && body[HONEYPOT_FIELD] !== '') {
          logger.info({ widgetId: widget.id, tenantId: widget.tenantId }, 'contact form: honeypot filled');
          return confirmation;
        }
        const values = checkSubmission(widget, body.fields);
        await leadFromSubmission(em, widget, values, visit);
        return confirmation;
      });
      res.status(201).json({ confirmationMessage: message });
    }),
  );

  router.get(
    `${PUBLIC_PATH}/bookings/:slug/slots`,
    route('GET /public/bookings/{slug}/slots', async (req, res) => {
      await perAddress(res, addressKey(req));
      const { from, days } = slotWindow(req);
      const slots = await asVisitor(req, async (em) => {
        const widget = await activeWidget(em, String(req.params.slug));
        allowOrigin(req, res, widget);
        return freeSlots(em, widget, from, days);
      });
      res.json({
        slotMinutes: SLOT_MINUTES,
        slots: slots.map((s) => ({
          startTime: s.toISOString(),
          endTime: new Date(s.getTime() + SLOT_MINUTES * 60_000).toISOString(),
        })),
      });
    }),
  );

  // Before `:slug`: "cancel" is no widget.
  router.post(
    `${PUBLIC_PATH}/bookings/cancel`,
    express.json({ limit: '4kb' }),
    route('POST /public/bookings/cancel', async (req, res) => {
      await perAddress(res, addressKey(req));
      const token = checkCancelToken(bodyOf(req));
      const booking = await asVisitor(req, (em) => cancelByToken(em, token));
      res.json({ id: booking.id, status: booking.status, startTime: booking.startTime.toISOString() });
    }),
  );

  router.post(
    `${PUBLIC_PATH}/bookings/:slug`,
    express.json({ limit: '64kb' }),
    route('POST /public/bookings/{slug}', async (req, res) => {
      await perAddress(res, addressKey(req));
      const request = checkBookingRequest(bodyOf(req));
      const booking = await asVisitor(req, async (em) => {
        const widget = await activeWidget(em, String(req.params.slug));
        if (req.headers.origin !== undefined && !originAllowed(widget, req.headers.origin))
          throw forbidden(`origin ${req.headers.origin} may not book here`);
        allowOrigin(req, res, widget);
        await perWidget(res, `${widget.tenantId}:${widget.id}`);
        bookablePerson(widget);
        return bookSlot(em, widget, request, mailSettings);
      });
      res.status(201).json({
        id: booking.id,
        status: booking.status,
        startTime: booking.startTime.toISOString(),
        endTime: booking.endTime!.toISOString(),
        cancellationToken: booking.cancellationToken,
      });
    }),
  );

  // What express.json refuses (a body that is no JSON, or too long) in the documented error body.
  router.use(PUBLIC_PATH, (err: unknown, _req: Request, res: Response, next: NextFunction) => {
    const type = (err as { type?: string }).type;
    if (type === 'entity.parse.failed') return sendError(res, 400, 'the body is not valid JSON');
    if (type === 'entity.too.large') return sendError(res, 413, 'the body is larger than 64 KB');
    next(err);
  });

  /** The widget a preflight asks about, or none (unknown and refused alike: no headers). */
  async function findForCors(req: Request): Promise<ContactFormWidgetConfig | undefined> {
    try {
      return await asVisitor(req, (em) => activeWidget(em, String(req.params.slug)));
    } catch (err) {
      if (err instanceof AppError && err.extensions.status === 404) return undefined;
      throw err;
    }
  }

  return router;
}

/** The days a slot request covers: `from` (YYYY-MM-DD, today unless given) and `days` (7 unless given). */
function slotWindow(req: Request): { from: Date; days: number } {
  const fromText =
    typeof req.query.from === 'string' ? req.query.from : new Date().toISOString().slice(0, 10);
  const from = new Date(`${fromText}T00:00:00.000Z`);
  if (!/^\d{4}-\d\d-\d\d$/.test(fromText) || Number.isNaN(from.getTime()))
    throw badRequest('from: must be a date (YYYY-MM-DD)');
  const daysText = typeof req.query.days === 'string' ? req.query.days : '7';
  const days = Number(daysText);
  if (!/^\d+$/.test(daysText) || days < 1 || days > MAX_DAYS)
    throw badRequest(`days: must be a whole number from 1 to ${MAX_DAYS}`);
  return { from, days };
}

function bodyOf(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (body == null || typeof body !== 'object' || Array.isArray(body))
    throw new AppError(400, 'Bad Request', 'the body must be a JSON object');
  return body as Record<string, unknown>;
}

/** The CORS answer for one widget: its origins, the headers a JSON POST needs, nothing more. */
function allowOrigin(req: Request, res: Response, widget: ContactFormWidgetConfig): void {
  const origin = req.headers.origin;
  res.setHeader('Vary', 'Origin');
  if (!origin || !originAllowed(widget, origin)) return;
  res.setHeader('Access-Control-Allow-Origin', origin);
  res.setHeader('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  res.setHeader('Access-Control-Allow-Headers', 'Content-Type');
  res.setHeader('Access-Control-Expose-Headers', 'Retry-After, X-Request-Id');
  res.setHeader('Access-Control-Max-Age', '600');
}
