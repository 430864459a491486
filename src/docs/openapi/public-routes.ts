import { HONEYPOT_FIELD } from '../../http/public-front-office';
import { PUBLIC_LIMITS } from '../../http/hardening';
import { VISIT_KEYS } from '../../domain/crm/public-forms';
import { errors } from './file-routes';
import type { OpenApiDocument } from './types';
import { common } from './responses';

/**
 * The public front office's routes (src/http/public-front-office.ts): HTTP of their own, taking
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
  } as unknown as OpenApiDocument['paths'];
}
