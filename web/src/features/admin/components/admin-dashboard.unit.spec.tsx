import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, jsonResponse } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render-with-providers';
import { AdminDashboard } from './admin-dashboard';

const stats = {
  totalOrders: 12,
  totalRevenue: 1234567.5,
  ordersByStatus: { Processing: 3, 'Out for Delivery': 2, Delivered: 7 },
  unseenOrders: 4,
  revenueByDay: [
    { date: '2026-11-21', revenue: 0, orders: 0 },
    { date: '2026-11-22', revenue: 1234567.5, orders: 12 },
  ],
  totalProducts: 36,
  lowStockProducts: 2,
  outOfStockProducts: 4,
  totalUsers: 10,
  pendingTestimonials: 1,
};

const tile = (label: string) => screen.getByText(label, { selector: 'dt' }).nextElementSibling?.textContent;

// Rendering with the store and router is slow on a busy machine: a roomier limit than the default 5 s.
describe('AdminDashboard', { timeout: 15_000 }, () => {
  it('shows the figures, revenue in Indian digit grouping, the revenue chart and the link tiles', async () => {
    fakeApi({ 'GET /api/orders/admin/stats': () => jsonResponse(stats) });
    renderWithProviders(<AdminDashboard />);
    await screen.findByText('Total Revenue');
    expect(tile('Total Revenue')).toBe('₹12,34,567.5');
    expect(tile('Total Orders')).toBe('12');
    expect(tile('Out for Delivery')).toBe('2');
    expect(tile('Pending Testimonials')).toBe('1');
    const chart = screen.getByRole('img', { name: /Revenue per day from 21 Nov to 22 Nov/ });
    expect(chart.querySelectorAll('rect')).toHaveLength(2);
    expect(screen.getByRole('link', { name: /Orders/ }).getAttribute('href')).toBe('/admin/orders');
  });

  it('keeps the link tiles when the figures cannot be read', async () => {
    fakeApi({ 'GET /api/orders/admin/stats': () => jsonResponse({ message: 'down' }, 503) });
    renderWithProviders(<AdminDashboard />);
    await screen.findByText('Could not load the figures');
    expect(screen.getByRole('link', { name: /Products/ })).toBeTruthy();
  });
});
