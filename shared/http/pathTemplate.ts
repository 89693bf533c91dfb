/**
 * Path templates in the Azure Functions route syntax: literal segments, `{name}` for one segment,
 * `{*name}` for the (possibly empty) rest. Used by the dispatcher of an endpoint group and by the
 * local host to pick a function.
 */
export interface CompiledTemplate {
  template: string;
  /** Higher wins when several templates match: literals beat parameters beat catch-alls. */
  specificity: number;
  match(path: string): Record<string, string> | undefined;
}

export function compileTemplate(template: string): CompiledTemplate {
  const segments = template.split('/').filter(Boolean);
  const names: string[] = [];
  let pattern = '^';
  let specificity = 0;
  segments.forEach((segment, index) => {
    const catchAll = /^\{\*([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(segment);
    const parameter = /^\{([A-Za-z_][A-Za-z0-9_]*)(?::[^}]*)?\}$/.exec(segment);
    if (catchAll?.[1]) {
      if (index !== segments.length - 1) throw new Error(`Catch-all must be last in ${template}`);
      names.push(catchAll[1]);
      pattern += '(?:/(.*))?';
    } else if (parameter?.[1]) {
      names.push(parameter[1]);
      pattern += '/([^/]+)';
      specificity += 2 * 10 ** (6 - Math.min(index, 6));
    } else {
      pattern += '/' + escapeRegExp(segment);
      specificity += 3 * 10 ** (6 - Math.min(index, 6));
    }
  });
  pattern += '/?$';
  // Literal segments match case-insensitively, as in ASP.NET routing; parameters keep their case.
  const regex = new RegExp(pattern, 'i');
  return {
    template,
    specificity,
    // Tried against every template of a host and a group on each request: no arrays built.
    match(path) {
      const query = path.indexOf('?');
      const result = regex.exec(query === -1 ? path : path.slice(0, query));
      if (!result) return undefined;
      const params: Record<string, string> = {};
      for (let i = 0; i < names.length; i += 1) {
        const raw = result[i + 1];
        if (raw !== undefined) params[names[i] as string] = safeDecode(raw);
      }
      return params;
    },
  };
}

function safeDecode(raw: string): string {
  // Without a percent sign there is nothing to decode.
  if (!raw.includes('%')) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    return raw;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
