// Amounts arrive as rupees with paise as decimals; they are formatted only here, at the edge.

const twoDecimals = new Intl.NumberFormat('en-IN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const upToTwoDecimals = new Intl.NumberFormat('en-IN', { maximumFractionDigits: 2 });

/** An amount in rupees as ₹ with Indian digit grouping and exactly 2 decimals, e.g. ₹1,23,456.50. */
export function formatRupees(amount: number): string {
  const sign = amount < 0 ? '-' : '';
  return `${sign}₹${twoDecimals.format(Math.abs(amount))}`;
}

/** A number in Indian digit grouping (lakh, crore) with up to 2 decimals, e.g. 12,34,567.5. */
export function groupIndianDigits(value: number): string {
  return upToTwoDecimals.format(value);
}
