/** The hidden input a widget renders and people never fill; a value marks the sender as a bot. */
export const HONEYPOT_FIELD = 'website';
