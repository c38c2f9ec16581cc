import { PageTitle } from '@/components/seo/page-title';
import { AddressBook } from '@/features/addresses/components/address-book';
import { PersonalInfoForm } from '@/features/auth/components/personal-info-form';

/** The profile: personal info (with age and the birthday greeting) and the address book. */
export function ProfileRoute() {
  return (
    <section className="container page">
      <PageTitle title="My Profile" />
      <h1 className="page-title">My Profile</h1>
      <div style={{ display: 'grid', gap: '1.5rem' }}>
        <PersonalInfoForm />
        <AddressBook />
      </div>
    </section>
  );
}
