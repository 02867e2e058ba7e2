import { PagePlaceholder } from '../../components/page-heading/page-placeholder';

/** Filled in by the console's second part. */
export default function RedemptionListPage() {
  return <PagePlaceholder titleKey="redemption.list.title" />;
}
