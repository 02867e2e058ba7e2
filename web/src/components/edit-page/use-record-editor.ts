import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Form, type FormInstance } from 'antd';
import { useEffect } from 'react';
import { useParams } from 'react-router';
import { queryKeys, type Resource } from '../../lib/query-keys';

export interface RecordEditorOptions<Values, Row, Input, Saved> {
  /** The resource the record belongs to; saving makes its lists and other reads stale. */
  resource: Resource;
  /** The record to edit and how to read it, or null on an add page, which starts from the form's defaults. */
  record: { id: number | 'self'; load: () => Promise<Row> } | null;
  /** The form's values for a loaded record. */
  toForm: (row: Row) => Partial<Values>;
  /** Sends what the form produced. */
  save: (input: Input) => Promise<Saved>;
  /** After a successful save: the toast, and for an add page a reset or a download. */
  onSaved: (saved: Saved, input: Input, form: FormInstance<Values>) => void;
}

/** The record editor's state: the form, the record once loaded, and the save with its busy flag. */
export interface RecordEditor<Values, Row, Input> {
  form: FormInstance<Values>;
  record: Row | undefined;
  loading: boolean;
  /** Why the record could not be read (the server's refusal, say a token of another user), else null. */
  loadError: string | null;
  saving: boolean;
  save: (input: Input) => void;
}

/**
 * Loads a record into a form (or starts empty) and saves it. A failed load or save was shown by the API client;
 * after a failed load the page has no record to edit (loadError), after a failed save the form stays as it is. After a save the resource's lists read again, but not the record itself, so the form
 * keeps what was typed (the key field, say, which the server never sends back).
 */
export function useRecordEditor<Values, Row, Input, Saved>(
  options: RecordEditorOptions<Values, Row, Input, Saved>,
): RecordEditor<Values, Row, Input> {
  const { resource, record, toForm, save, onSaved } = options;
  const [form] = Form.useForm<Values>();
  const queryClient = useQueryClient();
  const loaded = useQuery({
    queryKey: queryKeys.record(resource, record?.id ?? 0),
    queryFn: () => (record as NonNullable<typeof record>).load(),
    enabled: record !== null,
    // Each visit shows the record as the server has it now, behind the loading placeholder.
    gcTime: 0,
  });
  useEffect(() => {
    // Filled in once the form is mounted, which happens in the render that ends the loading.
    if (loaded.data !== undefined)
      form.setFieldsValue(toForm(loaded.data) as Parameters<typeof form.setFieldsValue>[0]);
    // toForm is applied once per loaded record, not again for each new closure the page renders.
  }, [loaded.data, form]);

  const saving = useMutation({
    mutationFn: save,
    onSuccess: (saved, input) => {
      onSaved(saved, input, form);
      void queryClient.invalidateQueries({
        queryKey: queryKeys.all(resource),
        predicate: (query) => !queryKeys.isRecord(query.queryKey),
      });
    },
  });

  return {
    form,
    record: loaded.data,
    loading: record !== null && loaded.isPending,
    loadError: loaded.error ? loaded.error.message : null,
    saving: saving.isPending,
    save: saving.mutate,
  };
}

/** The `:id` of an edit route as a number; 0 on an add route. */
export function useRecordId(): number {
  const { id } = useParams();
  return id ? Number(id) : 0;
}
