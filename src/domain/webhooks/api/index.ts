import { WebhookResolver } from './resolver';

export const webhookResolvers: Function[] = [WebhookResolver];
