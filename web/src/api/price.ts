import type { EffectivePrice, ListPrice, PriceImportPreview } from '@modelgate/wire';
import { api } from './client';

export type { EffectivePrice, ListPrice, PriceImportPreview };

/** Every effective price (served models, admin prices, stored ratios) with its source (admin). */
export const fetchEffectivePrices = () => api.get<EffectivePrice[]>('/api/price/');

/** Sets the admin's price of a model ('' group: every group). */
export const saveModelPrice = (body: { model: string; group: string; price: ListPrice; note: string }) =>
  api.put<null>('/api/price/', body);

export const deleteModelPrice = (model: string, group: string) =>
  api.delete<null>('/api/price/', { params: { model, group } });

/** A models.dev file: its content as uploaded, or (root) a path on the server. */
export type PriceFile = { data: Record<string, unknown> } | { path: string };

export interface PriceImportChoice {
  providers?: string[];
  models?: string[];
}

export const previewPriceImport = (file: PriceFile, choice: PriceImportChoice) =>
  api.post<PriceImportPreview>('/api/price/import/preview', { ...file, ...choice });

export const applyPriceImport = (file: PriceFile, choice: PriceImportChoice) =>
  api.post<PriceImportPreview>('/api/price/import', { ...file, ...choice });
