/**
 * Unicode's bidirectional controls: embeddings and overrides (U+202A-202E), isolates
 * (U+2066-2069) and the marks (U+200E, U+200F, U+061C). Inside a name they reorder what a reader
 * sees: `invoice\u202egnp.exe` shows as `invoiceexe.png`. A display name is plain text in one
 * direction per script, which needs none of them.
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]/g;

/** `text` without bidirectional controls, for a name that is stored and shown. */
export function withoutBidiControls(text: string): string {
  return text.replace(BIDI_CONTROLS, '');
}
