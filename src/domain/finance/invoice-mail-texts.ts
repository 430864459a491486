/**
 * The built-in subject and body of the invoice and reminder e-mails, in the tenant's language
 * (`settings.defaultLanguage`; a language without texts here gets English). Used where the
 * request gives none and the invoice has no `mailBody` (`reminderBody` for reminders).
 */
export type InvoiceMailKind = 'invoice' | 'reminder';

export interface MailFacts {
  number: string;
  tenant: string;
  amount: string;
  dueDate: string;
}

type Texts = Record<InvoiceMailKind, { subject: (f: MailFacts) => string; body: (f: MailFacts) => string }>;

const TEXTS: Record<string, Texts> = {
  en: {
    invoice: {
      subject: (f) => `Invoice ${f.number} from ${f.tenant}`,
      body: (f) =>
        `Hello,\n\nPlease find attached invoice ${f.number} for ${f.amount}, due on ${f.dueDate}.\n\nKind regards,\n${f.tenant}`,
    },
    reminder: {
      subject: (f) => `Reminder: invoice ${f.number} from ${f.tenant} is overdue`,
      body: (f) =>
        `Hello,\n\nOur records show that invoice ${f.number}, due on ${f.dueDate}, has ${f.amount} outstanding. ` +
        `Please pay it at your earliest convenience; the invoice is attached. If you have paid it already, please disregard this message.\n\nKind regards,\n${f.tenant}`,
    },
  },
  nl: {
    invoice: {
      subject: (f) => `Factuur ${f.number} van ${f.tenant}`,
      body: (f) =>
        `Beste klant,\n\nIn de bijlage vindt u factuur ${f.number} van ${f.amount}, te betalen uiterlijk ${f.dueDate}.\n\nMet vriendelijke groet,\n${f.tenant}`,
    },
    reminder: {
      subject: (f) => `Herinnering: factuur ${f.number} van ${f.tenant} is vervallen`,
      body: (f) =>
        `Beste klant,\n\nVolgens onze administratie staat van factuur ${f.number}, vervallen op ${f.dueDate}, nog ${f.amount} open. ` +
        `Wilt u dit bedrag zo spoedig mogelijk voldoen? De factuur is bijgevoegd. Heeft u al betaald, dan kunt u dit bericht als niet verzonden beschouwen.\n\nMet vriendelijke groet,\n${f.tenant}`,
    },
  },
};

/** The languages with built-in texts. */
export const MAIL_LANGUAGES = Object.keys(TEXTS);

export function mailTexts(language: string, kind: InvoiceMailKind, facts: MailFacts) {
  // "nl-BE" reads as "nl".
  const texts = TEXTS[language.toLowerCase().split(/[-_]/)[0]] ?? TEXTS.en;
  return { subject: texts[kind].subject(facts), body: texts[kind].body(facts) };
}
