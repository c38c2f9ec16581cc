// The shop's name and contact details, shown in the header, footer, page titles and contact page.
export const site = Object.freeze({
  name: 'Kapda',
  tagline: 'Stylish clothing for everyone',
  support: Object.freeze({
    email: 'support@kapda.in',
    phoneDisplay: '+91 98765 43210',
    phoneHref: 'tel:+919876543210',
    hours: 'Mon-Sat, 10 AM to 7 PM IST',
    replyPromise: 'We reply to every e-mail within 24 hours.',
  }),
  social: Object.freeze({ label: 'Instagram', href: 'https://www.instagram.com/kapda.in' }),
});
