import { allChannelTypes } from './channel-types.js';

/** Every built-in model name with the family that owns it, in channel-type order (first owner wins). */
let owners: Map<string, string> | undefined;

export function builtInModelOwners(): Map<string, string> {
  if (owners) return owners;
  owners = new Map();
  for (const description of allChannelTypes()) {
    for (const model of description.models) if (!owners.has(model)) owners.set(model, description.family);
  }
  return owners;
}

/** The fixed permission object one-api attaches to every built-in model. */
const permission = {
  id: 'modelperm-LwHkVFn8AcMItP432fKKDIKJ',
  object: 'model_permission',
  created: 1626777600,
  allow_create_engine: true,
  allow_sampling: true,
  allow_logprobs: true,
  allow_search_indices: false,
  allow_view: true,
  allow_fine_tuning: false,
  organization: '*',
  group: null,
  is_blocking: false,
};

export interface OpenAIModel {
  id: string;
  object: 'model';
  created: number;
  owned_by: string;
  permission: (typeof permission)[] | null;
  root: string;
  parent: null;
}

/** A model in OpenAI's list shape: built-in ones with their family, others as `custom`. */
export function describeModel(id: string): OpenAIModel {
  const owner = builtInModelOwners().get(id);
  return {
    id,
    object: 'model',
    created: 1626777600,
    owned_by: owner ?? 'custom',
    permission: owner ? [permission] : null,
    root: id,
    parent: null,
  };
}

/** Orders a set of names as one-api does: built-in models in built-in order, then the others. */
export function orderModels(names: Iterable<string>): string[] {
  const wanted = new Set(names);
  const ordered = [...builtInModelOwners().keys()].filter((name) => wanted.has(name));
  const builtIn = new Set(ordered);
  return [...ordered, ...[...wanted].filter((name) => !builtIn.has(name))];
}
