import { paths } from '@/config/paths';

/** The admin screens, in the order the dashboard lists them. */
export const adminScreens = [
  { title: 'Products', description: 'Add, edit, delist and delete products', href: paths.admin.products.getHref() },
  { title: 'Orders', description: 'All orders and their delivery status', href: paths.admin.orders.getHref() },
  { title: 'Users', description: 'Registered users and their roles', href: paths.admin.users.getHref() },
  { title: 'Testimonials', description: 'Approve or reject reviews', href: paths.admin.testimonials.getHref() },
  { title: 'Collections', description: 'Group products into collections', href: paths.admin.collections.getHref() },
  { title: 'Homepage Settings', description: 'Carousel slides on the homepage', href: paths.admin.home.getHref() },
  {
    title: 'Homepage Sections',
    description: 'Custom sections below the carousel',
    href: paths.admin.homepageSections.getHref(),
  },
  { title: 'Coupons', description: 'Discount codes and their limits', href: paths.admin.coupons.getHref() },
  {
    title: 'Delivery & Shipping Settings',
    description: 'Free delivery thresholds and charges',
    href: paths.admin.deliverySettings.getHref(),
  },
  { title: 'Delivery Areas', description: 'Serviceable pincodes', href: paths.admin.deliveryAreas.getHref() },
  {
    title: 'Refunds',
    description: 'Payments returned because they could not become an order',
    href: paths.admin.refunds.getHref(),
  },
  {
    title: 'Mail',
    description: 'E-mails the shop sent, kept in the built-in mail sandbox',
    href: paths.admin.mail.getHref(),
  },
] as const;
