import { Link } from 'react-router-dom';
import { paths } from '@/config/paths';
import { site } from '@/config/site';
import styles from './footer.module.css';

const shopLinks = [
  { label: 'All Products', href: paths.products.getHref() },
  { label: "Men's", href: paths.products.getHref({ category: 'Men' }) },
  { label: "Women's", href: paths.products.getHref({ category: 'Women' }) },
  { label: 'Kids', href: paths.products.getHref({ category: 'Kids' }) },
];

/** Site footer: tagline, support contacts, shop and help links, social profile and copyright year. */
export function Footer() {
  const year = new Date().getFullYear();
  return (
    <footer className={styles.footer}>
      <div className={`container ${styles.grid}`}>
        <section>
          <p className={styles.brand}>{site.name}</p>
          <p className={styles.tagline}>{site.tagline}</p>
          <a className={styles.social} href={site.social.href} target="_blank" rel="noopener noreferrer">
            Follow us on {site.social.label}
          </a>
        </section>
        <nav aria-label="Shop">
          <h2 className={styles.heading}>Shop</h2>
          <ul className={styles.list}>
            {shopLinks.map((link) => (
              <li key={link.label}>
                <Link to={link.href}>{link.label}</Link>
              </li>
            ))}
          </ul>
        </nav>
        <section>
          <h2 className={styles.heading}>Support</h2>
          <ul className={styles.list}>
            <li>
              <a href={`mailto:${site.support.email}`}>{site.support.email}</a>
            </li>
            <li>
              <a href={site.support.phoneHref}>{site.support.phoneDisplay}</a>
            </li>
            <li>
              <Link to={paths.contact.getHref()}>Contact us</Link>
            </li>
          </ul>
        </section>
      </div>
      <div className={`container ${styles.bottom}`}>
        <p>
          © {year} {site.name}. All rights reserved.
        </p>
      </div>
    </footer>
  );
}
