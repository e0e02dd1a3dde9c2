/**
 * Environments and APIs of the extraction service. Each environment has its own base URL and its own API keys;
 * staging keys start with `staging_` and do not work in production (spec: Environments). The service has two
 * APIs with addresses of their own (spec: "The Mexican extraction API names its own production and staging
 * addresses"): the Mexico API (`/v1/...`, the credential's Mexico fields) and the Ecuador API (`POST /taxpayers`,
 * the credential's Ecuador fields), each with its own key. Plain functions, no n8n types.
 */
import { trimEnd } from '../../shared/text';

type Environment = 'production' | 'staging';

/** The two APIs of the service: `mexico` (extraction jobs, downloads, key check) and `ecuador` (taxpayers). */
type Api = 'mexico' | 'ecuador';

const STAGING_KEY_PREFIX = 'staging_';

interface EnvironmentSettings {
	environment?: unknown;
	productionBaseUrl?: unknown;
	stagingBaseUrl?: unknown;
	apiKey?: unknown;
	ecuadorProductionBaseUrl?: unknown;
	ecuadorStagingBaseUrl?: unknown;
	ecuadorApiKey?: unknown;
	ecuadorOrganizationId?: unknown;
}

function environmentOf(settings: EnvironmentSettings): Environment {
	return settings.environment === 'staging' ? 'staging' : 'production';
}

const text = (value: unknown): string => (typeof value === 'string' ? value.trim() : '');

/** The credential's address of `api` in the chosen environment, without a trailing slash ('' when empty). */
export function baseUrlFor(settings: EnvironmentSettings, api: Api = 'mexico'): string {
	const staging = environmentOf(settings) === 'staging';
	const url =
		api === 'ecuador'
			? staging
				? settings.ecuadorStagingBaseUrl
				: settings.ecuadorProductionBaseUrl
			: staging
				? settings.stagingBaseUrl
				: settings.productionBaseUrl;
	return trimEnd(text(url), '/');
}

/** The label of the credential field that holds the address of `api` in the chosen environment. */
export function baseUrlLabel(settings: EnvironmentSettings, api: Api = 'mexico'): string {
	return `${api === 'ecuador' ? 'Ecuador' : 'Mexico'} ${environmentOf(settings) === 'staging' ? 'Staging' : 'Production'} Base URL`;
}

/** Why `key` (of the credential field `label`) does not belong to the chosen environment, or undefined. */
function keyEnvironmentProblem(
	settings: EnvironmentSettings,
	key: string,
	label: string,
): string | undefined {
	const stagingKey = key.startsWith(STAGING_KEY_PREFIX);
	if (environmentOf(settings) === 'production' && stagingKey) {
		return `The ${label} is a staging key (it starts with "${STAGING_KEY_PREFIX}") but the credential's Environment is Production: set Environment to Staging, or enter a production key. Nothing was sent.`;
	}
	if (environmentOf(settings) === 'staging' && !stagingKey) {
		return `The credential's Environment is Staging but the ${label} is not a staging key (staging keys start with "${STAGING_KEY_PREFIX}"): set Environment to Production, or enter a staging key. Nothing was sent.`;
	}
	return undefined;
}

/**
 * Why the credential cannot be used for the Mexico API as it is (checked before any request to it), or
 * undefined. The message says which setting to change.
 */
export function credentialProblem(settings: EnvironmentSettings): string | undefined {
	const key = text(settings.apiKey);
	if (!key)
		return 'The Document Extraction credential has no Mexico API Key: enter the key shown when it was created in the dashboard';
	if (!baseUrlFor(settings)) {
		const label = baseUrlLabel(settings);
		return `The Document Extraction credential has no ${label}: enter the address of the Mexico API's ${environmentOf(settings)} environment, or change Environment`;
	}
	return keyEnvironmentProblem(settings, key, 'Mexico API Key');
}

/**
 * Why the credential cannot be used for the Ecuador API (Taxpayer → Register) as it is, or undefined: every
 * Ecuador field it lacks, named as the credential shows it (a credential saved before these fields existed
 * lacks them all), then a key of the other environment. Checked before any request to the Ecuador API.
 */
export function ecuadorCredentialProblem(settings: EnvironmentSettings): string | undefined {
	const missing = [
		baseUrlFor(settings, 'ecuador') ? undefined : baseUrlLabel(settings, 'ecuador'),
		text(settings.ecuadorApiKey) ? undefined : 'Ecuador API Key',
		text(settings.ecuadorOrganizationId) ? undefined : 'Ecuador Organization ID',
	].filter((label): label is string => label !== undefined);
	if (missing.length) {
		const list =
			missing.length === 1
				? missing[0]
				: `${missing.slice(0, -1).join(', ')} and ${missing[missing.length - 1]}`;
		return `Taxpayer → Register goes to the Ecuador API, and the Document Extraction credential has no ${list}: fill ${missing.length === 1 ? 'it' : 'them'} in the credential (the Ecuador API has its own address and key; the Mexico ones are never sent there). Nothing was sent.`;
	}
	return keyEnvironmentProblem(settings, text(settings.ecuadorApiKey), 'Ecuador API Key');
}
