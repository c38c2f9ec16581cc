import { useState } from 'react';
import { useAppDispatch } from '@/app/hooks';
import { failureShown, notificationShown } from '@/components/notifications/notifications-slice';
import { Spinner } from '@/components/ui/spinner';
import { useGetAddressBookQuery } from '@/lib/addresses-api';
import { errorMessage } from '@/lib/api-client';
import type { Address } from '@/types/address';
import { addressLines, emptyAddress, type AddressInput } from '../address';
import { useAddAddressMutation, useDeleteAddressMutation, useUpdateAddressMutation } from '../api/addresses-api';
import { AddressForm } from './address-form';
import styles from './address-book.module.css';

type Editing = { mode: 'add' } | { mode: 'edit'; address: Address } | null;

function toInput(address: Address): AddressInput {
  const { id: _id, ...fields } = address;
  return fields;
}

/** The user's saved addresses: add, edit, delete and choose the default (the first one is the default). */
export function AddressBook() {
  const dispatch = useAppDispatch();
  const { data: addresses = [], isLoading, isError, error, refetch } = useGetAddressBookQuery();
  const [addAddress, adding] = useAddAddressMutation();
  const [updateAddress, updating] = useUpdateAddressMutation();
  const [deleteAddress, deleting] = useDeleteAddressMutation();
  const [editing, setEditing] = useState<Editing>(null);

  const save = async (values: AddressInput) => {
    try {
      if (editing?.mode === 'edit') {
        await updateAddress({ id: editing.address.id, changes: values }).unwrap();
        dispatch(notificationShown({ type: 'success', title: 'Address updated' }));
      } else {
        await addAddress(values).unwrap();
        dispatch(notificationShown({ type: 'success', title: 'Address added' }));
      }
      setEditing(null);
    } catch (failure) {
      dispatch(failureShown('Failed to save address', failure));
    }
  };

  const makeDefault = async (address: Address) => {
    try {
      await updateAddress({ id: address.id, changes: { isDefault: true } }).unwrap();
      dispatch(
        notificationShown({
          type: 'success',
          title: 'Address updated',
          message: `${address.label} is now your default address`,
        }),
      );
    } catch (failure) {
      dispatch(failureShown('Failed to save address', failure));
    }
  };

  const remove = async (address: Address) => {
    try {
      await deleteAddress(address.id).unwrap();
      dispatch(notificationShown({ type: 'success', title: 'Address deleted' }));
      if (editing?.mode === 'edit' && editing.address.id === address.id) setEditing(null);
    } catch (failure) {
      dispatch(failureShown('Failed to delete address', failure));
    }
  };

  const busy = adding.isLoading || updating.isLoading || deleting.isLoading;

  return (
    <section className={styles.card} aria-labelledby="address-book-title">
      <div className={styles.header}>
        <h2 id="address-book-title" className={styles.title}>
          Saved Addresses
        </h2>
        {editing === null ? (
          <button type="button" className="btn btn-primary btn-sm" onClick={() => setEditing({ mode: 'add' })}>
            Add Address
          </button>
        ) : null}
      </div>

      {editing !== null ? (
        <AddressForm
          key={editing.mode === 'edit' ? editing.address.id : 'new'}
          title={editing.mode === 'edit' ? 'Edit Address' : 'New Address'}
          initial={editing.mode === 'edit' ? toInput(editing.address) : emptyAddress()}
          isCurrentDefault={editing.mode === 'edit' && editing.address.isDefault}
          saving={adding.isLoading || updating.isLoading}
          onSave={save}
          onCancel={() => setEditing(null)}
        />
      ) : null}

      {isLoading ? (
        <Spinner label="Loading addresses..." />
      ) : isError ? (
        <div className={styles.empty}>
          <p>{errorMessage(error, 'Failed to load addresses')}</p>
          <button type="button" className="btn btn-outline btn-sm" onClick={() => void refetch()}>
            Try again
          </button>
        </div>
      ) : addresses.length === 0 ? (
        <p className={styles.empty}>No saved addresses yet.</p>
      ) : (
        <ul className={styles.list}>
          {addresses.map((address) => (
            <li key={address.id} className={styles.address} aria-label={`${address.label} address`}>
              <div className={styles.addressHead}>
                <strong>{address.label}</strong>
                {address.isDefault ? <span className={styles.defaultBadge}>Default</span> : null}
              </div>
              <p className={styles.addressText}>
                {address.name} · {address.phone}
                {address.email ? ` · ${address.email}` : ''}
              </p>
              <p className={styles.addressText}>{addressLines(address)}</p>
              <div className={styles.actions}>
                <button
                  type="button"
                  className="btn btn-outline btn-sm"
                  onClick={() => setEditing({ mode: 'edit', address })}
                  aria-label={`Edit ${address.label} address`}
                >
                  Edit
                </button>
                <button
                  type="button"
                  className="btn btn-outline btn-sm"
                  disabled={busy}
                  onClick={() => void remove(address)}
                  aria-label={`Delete ${address.label} address`}
                >
                  Delete
                </button>
                {address.isDefault ? null : (
                  <button
                    type="button"
                    className="btn btn-outline btn-sm"
                    disabled={busy}
                    onClick={() => void makeDefault(address)}
                    aria-label={`Set ${address.label} address as default`}
                  >
                    Set as default
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
