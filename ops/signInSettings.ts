import type { CommandEnv, CommandRun } from './command';
import { COMMAND_EXIT } from './command';

/**
 * The deployment variables the function app's sign-in is built from (infra/main.bicep derives
 * AUTH_ISSUER, AUTH_JWKS_URL and AUTH_OIDC_AUTHORITY from the tenant). A deployment with one of
 * them unset or left at the zero-GUID placeholder would answer every sign-in with 401, so the
 * Infrastructure workflow and `azd provision` refuse it before anything is deployed (main.bicep
 * refuses it as well, for a deployment started by hand).
 */
export const SIGN_IN_VARIABLES = ['AUTH_TENANT_ID', 'AUTH_PORTAL_CLIENT_ID', 'AUTH_APP_CLIENT_ID'] as const;

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const PLACEHOLDER = /^0{8}-0{4}-0{4}-0{4}-0{12}$/;

export function signInSettingsProblems(env: CommandEnv): string[] {
  const problems: string[] = [];
  for (const name of SIGN_IN_VARIABLES) {
    const value = env[name]?.trim() ?? '';
    if (!value) problems.push(`${name} is not set: set the environment's variable (docs/operations.md, "Sign-in")`);
    else if (!GUID.test(value)) problems.push(`${name} must be a GUID (the Entra ID tenant or application id)`);
    else if (PLACEHOLDER.test(value)) problems.push(`${name} is the zero-GUID placeholder: set the environment's real id`);
  }
  return problems;
}

/** `deploy:check-sign-in`: exit 0 when the sign-in variables are real ids, 2 naming each problem. */
export const runCheckSignIn: CommandRun = (_args, env) => {
  const problems = signInSettingsProblems(env);
  for (const problem of problems) console.error(problem);
  if (problems.length === 0) console.log('Sign-in settings: real tenant and client ids');
  return Promise.resolve(problems.length === 0 ? 0 : COMMAND_EXIT.settings);
};
