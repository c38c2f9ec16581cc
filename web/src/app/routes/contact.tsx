import { PageTitle } from '@/components/seo/page-title';
import { site } from '@/config/site';

export function ContactRoute() {
  const { support } = site;
  return (
    <section className="container page narrow">
      <PageTitle title="Contact us" />
      <h1 className="page-title">Contact us</h1>
      <p className="lead">Questions about an order, a size or a return? We are happy to help.</p>
      <dl className="surface contact-list">
        <div>
          <dt>E-mail</dt>
          <dd>
            <a href={`mailto:${support.email}`}>{support.email}</a>
          </dd>
        </div>
        <div>
          <dt>Phone</dt>
          <dd>
            <a href={support.phoneHref}>{support.phoneDisplay}</a>
          </dd>
        </div>
        <div>
          <dt>Hours</dt>
          <dd>{support.hours}</dd>
        </div>
      </dl>
      <p className="muted">{support.replyPromise}</p>
    </section>
  );
}
