import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, jsonResponse, requestsOf } from '@/testing/fake-api';
import { renderWithProviders } from '@/testing/render-with-providers';
import { HomepageSectionsPage } from './homepage-sections-page';

const product = (id: string, name: string) => ({ id, name, price: 999, quantity: 5 });
const section = {
  id: 's1',
  name: 'Festive',
  contentType: 'products',
  contentIds: ['p1', 'p2'],
  textStyle: 'thin-outline',
  textColor: '#112233',
  backgroundColor: '#FFEEDD',
  textSize: 'big',
  displayOrder: 0,
  isActive: false,
};

describe('HomepageSectionsPage', () => {
  it('lists a section with its badge and labels, and creates one with the next display order', async () => {
    const fetchMock = fakeApi({
      'GET /api/home/sections': () => jsonResponse([section]),
      'GET /api/products': () => jsonResponse([product('p1', 'Linen Shirt'), product('p2', 'Kurta')]),
      'GET /api/collections': () => jsonResponse([]),
      'POST /api/home/sections': () => jsonResponse({ message: 'Section created', ...section, id: 's2' }, 201),
    });
    renderWithProviders(<HomepageSectionsPage />);
    await screen.findByText('Festive');
    expect(screen.getByText('Inactive')).toBeTruthy();
    expect(screen.getByText(/Style: Thin Outline · Size: Big/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: '+ Create Section' }));
    expect((screen.getByLabelText('Display Order') as HTMLInputElement).value).toBe('1');
    fireEvent.click(screen.getByRole('button', { name: 'Create Section' }));
    expect(screen.getByRole('alert').textContent).toBe('Please fill name and select at least one item');

    fireEvent.change(screen.getByLabelText('Section Name'), { target: { value: 'New In' } });
    fireEvent.click(await screen.findByLabelText('Kurta'));
    expect(screen.getByText('Select Products (1 selected)')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Content Type'), { target: { value: 'collections' } });
    expect(screen.getByText('Select Collections (0 selected)')).toBeTruthy();
    expect(screen.getByText('No collections available')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Content Type'), { target: { value: 'products' } });
    fireEvent.click(screen.getByLabelText('Kurta'));
    fireEvent.click(screen.getByRole('button', { name: 'Create Section' }));

    await waitFor(() => expect(requestsOf(fetchMock).some((request) => request.method === 'POST')).toBe(true));
    const post = requestsOf(fetchMock).find((request) => request.method === 'POST')!;
    expect(await post.json()).toEqual({
      name: 'New In',
      contentType: 'products',
      contentIds: ['p2'],
      textStyle: 'default',
      textColor: '#000000',
      backgroundColor: '#FFFFFF',
      textSize: 'normal',
      displayOrder: 1,
      isActive: true,
    });
    await waitFor(() => expect(screen.queryByLabelText('Section Name')).toBeNull());
  });

  it("shows 'No sections created yet' without sections", async () => {
    fakeApi({
      'GET /api/home/sections': () => jsonResponse([]),
      'GET /api/products': () => jsonResponse([]),
      'GET /api/collections': () => jsonResponse([]),
    });
    renderWithProviders(<HomepageSectionsPage />);
    await screen.findByText('No sections created yet');
  });
});
