// Amounts arrive as rupees with paise as decimals; they are formatted only at the edge, by the one formatter the
// shop's e-mails use too.
export { formatRupees, groupIndianDigits } from '@shop/shared/money/money';
