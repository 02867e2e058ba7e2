import type { FormInstance } from 'antd';
import type { TFunction } from 'i18next';
import { notify } from '../../../lib/notify';
import type { PriceFieldError } from './price-form-values';

/** Shows what the price schema refused under each field; a refusal of the tiers as a whole as a toast. */
export function showPriceErrors(form: FormInstance, errors: PriceFieldError[], t: TFunction): void {
  const message = (error: PriceFieldError) => t(`price.form.error.${error.reason}`, { limit: error.limit });
  const [listErrors, fieldErrors] = [
    errors.filter((error) => error.name.length === 1 && error.name[0] === 'tiers'),
    errors.filter((error) => !(error.name.length === 1 && error.name[0] === 'tiers')),
  ];
  form.setFields(fieldErrors.map((error) => ({ name: error.name, errors: [message(error)] })));
  for (const error of listErrors) notify.error(message(error));
}
