/** What an e-mail says, once: composeMail writes it as plain text and as HTML. */
export interface MailContent {
  /** The first line ("Hello Asha,"). */
  greeting: string;
  paragraphs: string[];
  /** Rows of label and value (items, amounts, address); the last row of a table is shown in bold. */
  tables?: { title: string; rows: [string, string][] }[];
  /** The one button of the mail, and its link (shown as a URL in the plain text). */
  link?: { label: string; href: string };
  /** After the link ("This link works once ..."). */
  after?: string[];
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text made safe to place in HTML (element content or a quoted attribute): names and addresses are user text. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);

const SIGN_OFF = 'Kapda';

/** The plain-text and HTML bodies of one mail; every piece of text is escaped in the HTML. */
export function composeMail(c: MailContent): { text: string; html: string } {
  const text = [
    c.greeting,
    '',
    ...c.paragraphs.flatMap((p) => [p, '']),
    ...(c.tables ?? []).flatMap((t) => [t.title, ...t.rows.map(([k, v]) => (k ? `  ${k}: ${v}` : `  ${v}`)), '']),
    ...(c.link ? [`${c.link.label}: ${c.link.href}`, ''] : []),
    ...(c.after ?? []).flatMap((p) => [p, '']),
    SIGN_OFF,
  ].join('\n');
  const e = escapeHtml;
  const table = (t: { title: string; rows: [string, string][] }) =>
    `<h3 style="margin:16px 0 4px">${e(t.title)}</h3><table cellpadding="4" style="border-collapse:collapse">${t.rows
      .map(
        ([k, v], i) =>
          `<tr${i === t.rows.length - 1 && t.rows.length > 1 ? ' style="font-weight:bold"' : ''}><td>${e(k)}</td><td style="text-align:right">${e(v)}</td></tr>`,
      )
      .join('')}</table>`;
  const html = [
    '<!doctype html><html><body style="font-family:Arial,sans-serif;color:#222;line-height:1.5">',
    `<p>${e(c.greeting)}</p>`,
    ...c.paragraphs.map((p) => `<p>${e(p)}</p>`),
    ...(c.tables ?? []).map(table),
    ...(c.link
      ? [
          `<p><a href="${e(c.link.href)}" style="display:inline-block;padding:10px 16px;background:#111;color:#fff;text-decoration:none;border-radius:4px">${e(c.link.label)}</a></p>`,
        ]
      : []),
    ...(c.after ?? []).map((p) => `<p>${e(p)}</p>`),
    `<p>${e(SIGN_OFF)}</p>`,
    '</body></html>',
  ].join('\n');
  return { text, html };
}
