import { PagePlaceholder } from '../../components/page-heading/page-placeholder';

/** Filled in by the console's second part. */
export default function StatusPage() {
  return <PagePlaceholder titleKey="status.title" />;
}
