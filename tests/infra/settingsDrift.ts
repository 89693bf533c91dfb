/**
 * Compares the three lists of app settings: the code's schema, local.settings.sample.json and the
 * settings infra defines. Local-only settings (infra/local-only-settings.json) are left out of
 * infra on purpose; binding settings (`connection` names) are read by the host, not the code.
 */
export interface SettingLists {
  code: string[];
  sample: string[];
  infra: string[];
  localOnly: string[];
  bindingOnly: string[];
}

export interface Drift {
  codeMissingFromInfra: string[];
  sampleMissingFromInfra: string[];
  infraMissingFromSample: string[];
  infraReadByNobody: string[];
  localOnlyButInInfra: string[];
  localOnlyUnknown: string[];
}

const minus = (left: string[], ...right: string[][]) => left.filter((name) => !right.some((list) => list.includes(name))).sort();

export function settingsDrift({ code, sample, infra, localOnly, bindingOnly }: SettingLists): Drift {
  return {
    codeMissingFromInfra: minus(code, infra, localOnly),
    sampleMissingFromInfra: minus(sample, infra, localOnly),
    infraMissingFromSample: minus(infra, sample),
    infraReadByNobody: minus(infra, code, bindingOnly),
    localOnlyButInInfra: localOnly.filter((name) => infra.includes(name)).sort(),
    localOnlyUnknown: minus(localOnly, code, sample),
  };
}

export const noDrift: Drift = {
  codeMissingFromInfra: [],
  sampleMissingFromInfra: [],
  infraMissingFromSample: [],
  infraReadByNobody: [],
  localOnlyButInInfra: [],
  localOnlyUnknown: [],
};
