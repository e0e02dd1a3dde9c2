/**
 * Environments of the extraction service. Each has its own base URL and its own API keys; staging keys
 * start with `staging_` and do not work in production (spec: Environments). Plain functions, no n8n types.
 */
export type Environment = 'production' | 'staging';

export const STAGING_KEY_PREFIX = 'staging_';

export interface EnvironmentSettings {
	environment?: unknown;
	productionBaseUrl?: unknown;
	stagingBaseUrl?: unknown;
	apiKey?: unknown;
}

export function environmentOf(settings: EnvironmentSettings): Environment {
	return settings.environment === 'staging' ? 'staging' : 'production';
}

export function baseUrlFor(settings: EnvironmentSettings): string {
	const url = environmentOf(settings) === 'staging' ? settings.stagingBaseUrl : settings.productionBaseUrl;
	return String(url ?? '').trim().replace(/\/+$/, '');
}

/**
 * Why the credential cannot be used as it is (checked before any request), or undefined. The message says
 * which setting to change.
 */
export function credentialProblem(settings: EnvironmentSettings): string | undefined {
	const env = environmentOf(settings);
	const key = String(settings.apiKey ?? '').trim();
	const envName = env === 'staging' ? 'Staging' : 'Production';
	if (!key) return 'The Document Extraction credential has no API key: enter the key shown when it was created in the dashboard';
	if (!baseUrlFor(settings)) {
		return `The Document Extraction credential has no ${envName} Base URL: enter the address of the ${envName.toLowerCase()} API, or change Environment`;
	}
	const stagingKey = key.startsWith(STAGING_KEY_PREFIX);
	if (env === 'production' && stagingKey) {
		return `The API key is a staging key (it starts with "${STAGING_KEY_PREFIX}") but the credential's Environment is Production: set Environment to Staging, or enter a production key. Nothing was sent.`;
	}
	if (env === 'staging' && !stagingKey) {
		return `The credential's Environment is Staging but the API key is not a staging key (staging keys start with "${STAGING_KEY_PREFIX}"): set Environment to Production, or enter a staging key. Nothing was sent.`;
	}
	return undefined;
}
