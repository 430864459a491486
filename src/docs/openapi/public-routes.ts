import { HONEYPOT_FIELD } from '../../domain/crm/honeypot';
import { PUBLIC_LIMITS } from '../../http/hardening';
import { VISIT_KEYS } from '../../domain/crm/public-forms';
import {
  CANCEL_TOKEN_MAX,
  CLOSE_HOUR,
  MAX_DAYS,
  OPEN_HOUR,
  SLOT_MINUTES,
} from '../../domain/crm/public-bookings';
import { errors } from './transfers';
import type { OpenApiDocument } from './types';
import { common } from './responses';

/**
 * The public front office's routes (src/domain/crm/api/public-front-office.ts): HTTP of their own, taking
 * no credential (`security: []`), each with its rate limits in its description.
 */
const LIMITS = `Rate limited per client address (PUBLIC_RATE_LIMIT_PER_ADDRESS, ${PUBLIC_LIMITS.perAddress} a minute unless configured) and per widget (PUBLIC_RATE_LIMIT_PER_WIDGET, ${PUBLIC_LIMITS.perWidget} a minute): over either, 429 with \`Retry-After\`.`;

const TENANT = {
  name: 'tenant',
  in: 'query' as const,
  required: true,
  description:
    "Id of the widget's tenant: a slug is unique only within its tenant. A slug of another tenant reads as an unknown one (404).",
  schema: { type: 'string', maxLength: 36 },
};

const SLUG = {
  name: 'slug',
  in: 'path' as const,
  required: true,
  description: "The widget's slug (case does not matter).",
  schema: { type: 'string', maxLength: 100 },
};

const text = (description: string) => ({ type: 'string', maxLength: 2000, description });

export function publicPaths(tag: string): OpenApiDocument['paths'] {
  return {
    '/public/contact-forms/{slug}': {
      post: {
        operationId: 'submitPublicContactForm',
        summary: 'Send a contact form (no credential)',
        description: `A visitor's submission of an active contact-form widget becomes a NEW lead (source \`contact-form\`, sourceDetail the slug, the visit's page, referrer, UTM fields and language), owned by the user of the widget's \`assignedTeamLeadId\`; the answer is the widget's \`confirmationMessage\`. \`fields\` is checked against the widget's own field definitions: each problem is named in \`errors\` (400). An unknown or inactive slug, or another tenant's, is 404. A browser request whose \`Origin\` is not among the widget's \`allowedOrigins\` is 403 (CORS answers only those origins). The \`${HONEYPOT_FIELD}\` field is a honeypot: a widget hides it, and a submission that fills it is answered as a success and stored nowhere. ${LIMITS}`,
        tags: [tag],
        security: [],
        parameters: [SLUG, TENANT],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                properties: {
                  fields: {
                    type: 'object',
                    description:
                      "The form's values by field name (a CHECKBOX true or false, a NUMBER a number, the others texts).",
                    additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
                  },
                  [HONEYPOT_FIELD]: { type: 'string', description: 'The honeypot: left empty by people.' },
                  ...Object.fromEntries(VISIT_KEYS.map((k) => [k, text(`The lead's \`${k}\`.`)])),
                },
              },
            },
          },
        },
        responses: {
          '201': {
            description: 'Received.',
            headers: common(),
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['confirmationMessage'],
                  properties: {
                    confirmationMessage: { type: 'string', description: 'What to show the visitor.' },
                  },
                },
              },
            },
          },
          ...errors(
            'BadRequest',
            'Forbidden',
            'NotFound',
            'PayloadTooLarge',
            'TooManyRequests',
            'InternalServerError',
            'ServiceUnavailable',
          ),
        },
        'x-extension': true,
      },
    },
    '/public/bookings/{slug}/slots': {
      get: {
        operationId: 'publicBookingSlots',
        summary: 'The free slots of a booking page (no credential)',
        description: `The free slots of the employee a widget names as \`assignedTeamLeadId\` (a widget without one has no booking page: 404): ${SLOT_MINUTES}-minute slots on weekdays, ${OPEN_HOUR}:00 to ${CLOSE_HOUR}:00 UTC, in the future, less every CONFIRMED or PENDING booking of that employee. ${LIMITS}`,
        tags: [tag],
        security: [],
        parameters: [
          SLUG,
          TENANT,
          {
            name: 'from',
            in: 'query',
            required: false,
            description: 'First day (YYYY-MM-DD, UTC); today unless given.',
            schema: { type: 'string', maxLength: 10 },
          },
          {
            name: 'days',
            in: 'query',
            required: false,
            description: `How many days (1 to ${MAX_DAYS}); 7 unless given.`,
            schema: { type: 'string', maxLength: 3 },
          },
        ],
        responses: {
          '200': {
            description: 'The free slots, earliest first.',
            headers: common(),
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['slotMinutes', 'slots'],
                  properties: {
                    slotMinutes: {
                      type: 'integer',
                      format: 'int32',
                      minimum: SLOT_MINUTES,
                      maximum: SLOT_MINUTES,
                    },
                    slots: {
                      type: 'array',
                      items: {
                        type: 'object',
                        required: ['startTime', 'endTime'],
                        properties: {
                          startTime: { type: 'string', format: 'date-time' },
                          endTime: { type: 'string', format: 'date-time' },
                        },
                      },
                    },
                  },
                },
              },
            },
          },
          ...errors('BadRequest', 'NotFound', 'TooManyRequests', 'InternalServerError', 'ServiceUnavailable'),
        },
        'x-extension': true,
      },
    },
    '/public/bookings/{slug}': {
      post: {
        operationId: 'bookPublicSlot',
        summary: 'Book a slot (no credential)',
        description: `Books a free slot of the booking page's employee as CONFIRMED; a slot taken meanwhile is 409, also when requests arrive at once (the employee's row is locked while a booking is decided). The booking's lead is the tenant's latest lead with that e-mail, or a NEW lead (source \`booking\`) owned by the team lead's user. The answer carries the \`cancellationToken\` for POST /public/bookings/cancel. Origins as for contact forms (403 for another). ${LIMITS}`,
        tags: [tag],
        security: [],
        parameters: [SLUG, TENANT],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['startTime', 'email'],
                properties: {
                  startTime: { type: 'string', description: "A free slot's startTime." },
                  email: text("The visitor's e-mail address."),
                  firstName: text("The visitor's first name."),
                  lastName: text("The visitor's last name."),
                  companyName: text("The visitor's company."),
                  phone: text("The visitor's phone number."),
                  message: text('What the visitor writes.'),
                  timezone: text("The visitor's time zone (IANA name)."),
                },
              },
            },
          },
        },
        responses: {
          '201': {
            description: 'Booked.',
            headers: common(),
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['id', 'status', 'startTime', 'endTime', 'cancellationToken'],
                  properties: {
                    id: { type: 'string', format: 'uuid' },
                    status: { type: 'string' },
                    startTime: { type: 'string', format: 'date-time' },
                    endTime: { type: 'string', format: 'date-time' },
                    cancellationToken: {
                      type: 'string',
                      description: 'Cancels the booking (POST /public/bookings/cancel).',
                    },
                  },
                },
              },
            },
          },
          ...errors(
            'BadRequest',
            'Forbidden',
            'NotFound',
            'Conflict',
            'PayloadTooLarge',
            'TooManyRequests',
            'InternalServerError',
            'ServiceUnavailable',
          ),
        },
        'x-extension': true,
      },
    },
    '/public/bookings/cancel': {
      post: {
        operationId: 'cancelPublicBooking',
        summary: 'Cancel a booking with its token (no credential)',
        description: `Cancels the CONFIRMED or PENDING booking whose \`cancellationToken\` is given. A token unknown, of another tenant, or of a booking already cancelled or over is 404. Rate limited per client address.`,
        tags: [tag],
        security: [],
        parameters: [TENANT],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['token'],
                properties: { token: { type: 'string', minLength: 1, maxLength: CANCEL_TOKEN_MAX } },
              },
            },
          },
        },
        responses: {
          '200': {
            description: 'Cancelled.',
            headers: common(),
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['id', 'status', 'startTime'],
                  properties: {
                    id: { type: 'string', format: 'uuid' },
                    status: { type: 'string', enum: ['CANCELLED'] },
                    startTime: { type: 'string', format: 'date-time' },
                  },
                },
              },
            },
          },
          ...errors('BadRequest', 'NotFound', 'TooManyRequests', 'InternalServerError', 'ServiceUnavailable'),
        },
        'x-extension': true,
      },
    },
  } as unknown as OpenApiDocument['paths'];
}
