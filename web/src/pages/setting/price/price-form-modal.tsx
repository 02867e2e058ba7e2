import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Form, Input, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { saveModelPrice, type ListPrice } from '../../../api/price';
import { useGroups } from '../../../hooks/use-groups';
import { notify } from '../../../lib/notify';
import { queryKeys } from '../../../lib/query-keys';
import { PriceFields } from './price-fields';
import { showPriceErrors } from './price-form-errors';
import { priceFormValues, priceOfForm, type PriceFormValues } from './price-form-values';

/** What the form starts from: a model's key and group, its price now and its note. */
export interface PriceDraft {
  model: string;
  group: string;
  price: ListPrice | null;
  note: string;
  /** An existing admin price: its model and group are its key and stay as they are. */
  existing: boolean;
}

type Values = PriceFormValues & { model: string; group: string; note: string };

/** Adds or edits an admin's price of a model (for every group or one), checked as the server checks it. */
export function PriceFormModal({ draft, onClose }: { draft: PriceDraft | null; onClose: () => void }) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const groups = useGroups(draft !== null);
  const queryClient = useQueryClient();
  const saving = useMutation({
    mutationFn: (body: Parameters<typeof saveModelPrice>[0]) => saveModelPrice(body),
    onSuccess: () => {
      notify.success(t('price.toast.saved'));
      onClose();
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.all('price') }),
  });

  const submit = ({ model, group, note, ...values }: Values) => {
    const checked = priceOfForm(values);
    if ('errors' in checked) {
      showPriceErrors(form, checked.errors, t);
      return;
    }
    saving.mutate({ model: model.trim(), group: group ?? '', note: note ?? '', price: checked.price });
  };

  return (
    <Modal
      open={draft !== null}
      title={draft?.existing ? t('price.form.editTitle', { model: draft.model }) : t('price.form.addTitle')}
      okText={t('price.form.save')}
      cancelText={t('price.form.cancel')}
      confirmLoading={saving.isPending}
      onOk={() => form.submit()}
      onCancel={onClose}
      width={760}
      destroyOnHidden
    >
      {/* Mounted afresh on each opening (destroyOnHidden), so it starts from the draft's values. */}
      <Form<Values>
        form={form}
        name="model-price"
        layout="vertical"
        onFinish={submit}
        initialValues={
          draft
            ? { model: draft.model, group: draft.group, note: draft.note, ...priceFormValues(draft.price) }
            : undefined
        }
      >
        <Form.Item
          name="model"
          label={t('price.form.model')}
          extra={t('price.form.modelHint')}
          rules={[{ required: true, whitespace: true, message: t('price.form.modelRequired') }]}
        >
          <Input disabled={draft?.existing} maxLength={191} />
        </Form.Item>
        <Form.Item name="group" label={t('price.form.group')} extra={t('price.form.groupHint')}>
          <Select
            disabled={draft?.existing}
            options={[
              { value: '', label: t('price.allGroups') },
              ...groups.map((group) => ({ value: group, label: group })),
            ]}
          />
        </Form.Item>
        <Form.Item name="note" label={t('price.form.note')}>
          <Input maxLength={255} />
        </Form.Item>
        <PriceFields />
      </Form>
    </Modal>
  );
}
