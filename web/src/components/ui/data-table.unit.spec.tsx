import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import '@/testing/render-with-providers';
import { DataTable, type Column } from './data-table';

type Refund = { orderId: string; paymentId: string; email: string };

const columns: Column<Refund>[] = [
  {
    label: 'Order / Payment',
    cell: (refund) => (
      <>
        <span>{refund.orderId}</span>
        <br />
        <span>{refund.paymentId}</span>
      </>
    ),
  },
  { label: 'Customer', cell: (refund) => refund.email },
];

describe('DataTable', () => {
  it("gives each cell's value one box beside its label, even a value of several parts (a phone's card row)", () => {
    // On a phone a cell is a flex row: its label, then its children. Parts laid side by side ran off the card
    // (the refunds' order and payment ids at 375 px); as one box they wrap under each other.
    render(
      <DataTable
        columns={columns}
        rows={[{ orderId: 'order_6wyxoKnUlv5nP2', paymentId: 'pay_NvX8bWq1pLk3Za', email: 'asha@example.in' }]}
        rowKey={(refund) => refund.orderId}
      />,
    );
    const cells = within(screen.getAllByRole('row')[1]!).getAllByRole('cell');
    expect(cells.map((cell) => cell.getAttribute('data-label'))).toEqual(['Order / Payment', 'Customer']);
    for (const cell of cells) expect(cell.children).toHaveLength(1);
    expect(cells[0]!.children[0]!.textContent).toBe('order_6wyxoKnUlv5nP2pay_NvX8bWq1pLk3Za');
    expect(cells[1]!.children[0]!.textContent).toBe('asha@example.in');
  });
});
