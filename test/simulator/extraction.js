import { createHmac, randomUUID } from 'node:crypto';
import { cfdiXml, uuidWith } from './cfdi';
import { EcuadorExtractionSimulator } from './extraction-ecuador';
/** @import { RouteTable, ServiceSimulator, SimRequest, SimResponse } from './server' */

/**
 * Stateful simulator of the tax-document extraction service's Mexico API (its specification, plus what the real
 * service documents publicly where the specification is silent). The Ecuador API (`POST /taxpayers`) has an
 * address of its own and is simulated by `ecuador` (extraction-ecuador.js), served under its own prefix: this
 * API answers `/taxpayers` with 404, as the real Mexico API does (no such route).
 *
 * Environments: production and staging are served under the one `/extraction` prefix, as two base URLs:
 * `<server.url('extraction')>/prod` and `<server.url('extraction')>/staging` (see `baseUrl`). Each has its
 * own API keys; a key of the other environment answers 401.
 *
 * API keys carry permissions and a plan rate limit (`requestsPerHour`; over it → 429 with Retry-After).
 * The per-operation limits of the spec (10 creations/hour, 100 status checks/minute, 1,000 downloads/hour)
 * are enforced too and can be lowered by tests (`limits`). Both auth headers are accepted unless
 * `acceptedSchemes` says otherwise.
 *
 * Jobs move PROCESSING → COMPLETED | FAILED on a schedule the test controls: `nextJobs` (or
 * `defaultSchedule`) gives, for each created job, after how many status checks it ends, how, and with how
 * many documents; or drive a job by hand with `advance`, `complete` and `failJob`. `discoveryCount` is set
 * on the first check, `completedCount` grows with each check.
 *
 * Assumptions this simulator makes where the spec is silent (the node makes the same ones): the request
 * body is `{ SAT, options: { informationType, period, direction }, filters }`; a job record lists its
 * documents in `documents` once COMPLETED; the download format is the query parameter `type` (XML | PDF,
 * default XML); error bodies are `{ error: { code, message } }`.
 */

/**
 * @typedef {'prod' | 'staging'} Env
 */
/**
 * @typedef {'bearer' | 'x-api-key'} AuthScheme
 */

/**
 * @typedef {object} ApiKey
 * @property {string} key
 * @property {Env} env
 * @property {string[]} permissions
 * @property {string} plan
 * @property {number} requestsPerHour
 * @property {{ id: string; name: string }} organization
 */

/**
 * @typedef {object} JobSchedule
 * @property {number} checks Status checks answered PROCESSING before the final state (0: final on the first check).
 * @property {'COMPLETED' | 'FAILED'} outcome
 * @property {number} documents Documents discovered (COMPLETED).
 * @property {Array<'XML' | 'PDF'>} [formats] Formats each document offers (default both).
 * @property {{ code: string; message: string; details?: unknown }} [error]
 */

/**
 * @typedef {object} SimDocument
 * @property {string} id
 * @property {string} uuid
 * @property {string} type
 * @property {string} issueDate
 * @property {number} amount
 * @property {string} currency
 * @property {{ rfc: string; name: string }} emitter
 * @property {{ rfc: string; name: string }} receiver
 * @property {Array<'XML' | 'PDF'>} availableFormats
 */

/**
 * @typedef {object} Job
 * @property {string} publicId
 * @property {Env} env
 * @property {string} key
 * @property {'PROCESSING' | 'COMPLETED' | 'FAILED'} status
 * @property {number} discoveryCount
 * @property {number} completedCount
 * @property {string} createdAt
 * @property {Record<string, unknown>} request
 * @property {JobSchedule} schedule
 * @property {number} checks
 * @property {SimDocument[]} documents
 * @property {{ code: string; message: string; details?: unknown }} [error]
 */

/** @returns {SimResponse} */
const err = (status, code, message, headers) => ({
	status,
	body: { error: { code, message } },
	headers,
});

/**
 * What the SAT simulator (sat.js) answers for the documents this simulator makes, in turn: mostly valid, some
 * cancelled, one whose issuer is on the EFOS list (the codes of sat.js OUTCOMES, in the UUIDs' last group).
 */
export const DOCUMENT_OUTCOMES = ['A000', 'C001', 'A002', 'E100', 'C003'];

export const PERMISSIONS_ALL = ['extractions:create', 'extractions:read', 'documents:download'];

export class ExtractionSimulator {
	prefix = 'extraction';
	keys = /** @type {Map<string, ApiKey>} */ (new Map());
	jobs = /** @type {Map<string, Job>} */ (new Map());
	/** The Ecuador API: another prefix, served by the same server (add it to the server's simulators). */
	ecuador = new EcuadorExtractionSimulator();
	/**
	 * Schedules for the next created jobs, used in order; then `defaultSchedule`.
	 * @type {JobSchedule[]}
	 */
	nextJobs = [];
	/** @type {JobSchedule} */
	defaultSchedule = { checks: 1, outcome: 'COMPLETED', documents: 2 };
	/** @type {AuthScheme[]} */
	acceptedSchemes = ['bearer', 'x-api-key'];
	limits = { creationsPerHour: 10, statusChecksPerMinute: 100, downloadsPerHour: 1000 };
	/** Old (beta) names in job records: `extractionId` instead of `publicId`, RECEIVED/ISSUED. */
	betaNames = false;
	/** Whether completed job records list their documents (the node's assumption). */
	listDocuments = true;
	/** A careless service that echoes the SAT credentials in job records and errors (to test redaction). */
	echoSecrets = false;
	/** `GET /v1/extractions/{publicId}` answers 404 for a job younger than this (ms): a read replica that lags. */
	jobVisibleAfterMs = 0;
	hits = /** @type {Map<string, number[]>} */ (new Map());
	/** Documents made so far: numbers their UUIDs. */
	documentCount = 0;

	prodKey = 'live_7Qm2vX9kLp4Rt8Ws';
	stagingKey = 'staging_3Hn6Jd1Fz5Bc0Yx2';

	constructor() {
		this.reset();
	}

	reset() {
		this.keys.clear();
		this.jobs.clear();
		this.ecuador.reset();
		this.nextJobs.length = 0;
		this.hits.clear();
		this.defaultSchedule = { checks: 1, outcome: 'COMPLETED', documents: 2 };
		this.acceptedSchemes = ['bearer', 'x-api-key'];
		this.limits = { creationsPerHour: 10, statusChecksPerMinute: 100, downloadsPerHour: 1000 };
		this.betaNames = false;
		this.listDocuments = true;
		this.echoSecrets = false;
		this.jobVisibleAfterMs = 0;
		this.addKey(this.prodKey, { env: 'prod' });
		this.addKey(this.stagingKey, { env: 'staging' });
	}

	/**
	 * The base URL of an environment, given the server's URL for this prefix.
	 * @returns {string}
	 */
	static baseUrl(serviceUrl, env) {
		return `${serviceUrl}/${env}`;
	}

	/** @returns {ApiKey} */
	addKey(key, opts) {
		/** @type {ApiKey} */
		const record = {
			key,
			env: opts.env,
			permissions: opts.permissions ?? [...PERMISSIONS_ALL],
			plan: opts.plan ?? (opts.env === 'staging' ? 'sandbox' : 'business'),
			requestsPerHour: opts.requestsPerHour ?? 5000,
			organization: opts.organization ?? { id: 'org_42', name: 'Contadores Unidos SC' },
		};
		this.keys.set(key, record);
		return record;
	}

	/**
	 * Moves a job one status check forward (as a GET would).
	 * @returns {Job}
	 */
	advance(publicId) {
		const job = this.requireJob(publicId);
		this.step(job);
		return job;
	}

	/** @returns {Job} */
	complete(publicId, documents) {
		const job = this.requireJob(publicId);
		if (documents !== undefined) job.schedule = { ...job.schedule, documents };
		this.finish(job, 'COMPLETED');
		return job;
	}

	/** @returns {Job} */
	failJob(
		publicId,
		error = {
			code: 'INVALID_CREDENTIALS',
			message: 'SAT rejected the credentials',
			details: { satResponse: 'RFC o contraseña incorrectos' },
		},
	) {
		const job = this.requireJob(publicId);
		job.schedule = { ...job.schedule, error };
		this.finish(job, 'FAILED');
		return job;
	}

	/**
	 * Adds a job directly (state as given), for Get/Download tests.
	 * @returns {Job}
	 */
	seedJob(opts = {}) {
		/** @type {JobSchedule} */
		const schedule = { ...this.defaultSchedule, ...opts };
		const job = this.newJob(
			opts.env ?? 'prod',
			opts.env === 'staging' ? this.stagingKey : this.prodKey,
			{},
			schedule,
		);
		if (opts.status === 'COMPLETED' || opts.status === 'FAILED') this.finish(job, opts.status);
		return job;
	}

	/**
	 * File content of a document in a format.
	 * @returns {Buffer}
	 */
	content(doc, format) {
		if (format === 'XML') {
			// A CFDI 4.0 as the SAT stamps it (cfdi.js), between two of the SAT's published test RFCs (no check-digit warning in any run): one concepto whose amount plus 16 % IVA is the document's.
			const xml = cfdiXml({
				uuid: doc.uuid,
				folio: doc.id.slice(-6),
				fecha: doc.issueDate.slice(0, 19),
				moneda: doc.currency,
				emisor: { rfc: doc.emitter.rfc, nombre: doc.emitter.name },
				receptor: { rfc: doc.receiver.rfc, nombre: doc.receiver.name },
				conceptos: [
					{ descripcion: 'Servicios profesionales', cantidad: 1, valorUnitario: doc.amount / 1.16 },
				],
			}).xml;
			return Buffer.from(xml);
		}
		// A tiny but well-formed PDF naming the document.
		return Buffer.from(
			`%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Count 0/Kids[]>>endobj\n% CFDI ${doc.uuid}\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
			'latin1',
		);
	}

	/** @returns {Job} */
	requireJob(publicId) {
		const job = this.jobs.get(publicId);
		if (!job) throw new Error(`no job ${publicId}`);
		return job;
	}

	/** @returns {Job} */
	newJob(env, key, request, schedule) {
		/** @type {Job} */
		const job = {
			publicId: `ext_${randomUUID().replace(/-/g, '').slice(0, 16)}`,
			env,
			key,
			status: 'PROCESSING',
			discoveryCount: 0,
			completedCount: 0,
			createdAt: new Date().toISOString(),
			request,
			schedule,
			checks: 0,
			documents: [],
		};
		this.jobs.set(job.publicId, job);
		return job;
	}

	/** @returns {SimDocument[]} */
	makeDocuments(job) {
		const subject = String(
			/** @type {Record<string, unknown> | undefined} */ (job.request.SAT)?.rfc ?? 'EKU9003173C9',
		);
		return Array.from({ length: job.schedule.documents }, (_, n) => ({
			id: `doc_${job.publicId.slice(4, 10)}_${n + 1}`,
			uuid: uuidWith(
				DOCUMENT_OUTCOMES[this.documentCount % DOCUMENT_OUTCOMES.length],
				++this.documentCount,
			),
			type: 'INVOICE',
			issueDate: new Date(Date.UTC(2026, 9, 1 + n)).toISOString(),
			amount: 1160 * (n + 1),
			currency: 'MXN',
			emitter: { rfc: 'XIA190128J61', name: `Proveedor ${n + 1} SA de CV` },
			receiver: { rfc: subject, name: 'Contribuyente Ejemplo' },
			availableFormats: job.schedule.formats ?? ['XML', 'PDF'],
		}));
	}

	finish(job, outcome) {
		job.status = outcome;
		if (outcome === 'COMPLETED') {
			job.documents = this.makeDocuments(job);
			job.discoveryCount = job.documents.length;
			job.completedCount = job.documents.length;
		} else {
			job.error = job.schedule.error ?? {
				code: 'INVALID_CREDENTIALS',
				message: 'SAT rejected the credentials',
				details: { satResponse: 'RFC o contraseña incorrectos' },
			};
		}
	}

	step(job) {
		if (job.status !== 'PROCESSING') return;
		job.checks++;
		job.discoveryCount = job.schedule.documents;
		if (job.checks > job.schedule.checks) {
			this.finish(job, job.schedule.outcome);
			return;
		}
		job.completedCount = Math.min(
			job.schedule.documents,
			Math.floor((job.schedule.documents * job.checks) / (job.schedule.checks + 1)),
		);
	}

	/**
	 * The job as the service shows it.
	 * @returns {Record<string, unknown>}
	 */
	record(job) {
		const options = /** @type {Record<string, unknown>} */ (job.request.options ?? {});
		const direction =
			this.betaNames && typeof options.direction === 'string'
				? /** @type {Record<string, string>} */ ({ INBOUND: 'RECEIVED', OUTBOUND: 'ISSUED' })[
						options.direction
					]
				: options.direction;
		/** @type {Record<string, unknown>} */
		const out = {
			[this.betaNames ? 'extractionId' : 'publicId']: job.publicId,
			status: job.status,
			discoveryCount: job.discoveryCount,
			completedCount: job.completedCount,
			createdAt: job.createdAt,
		};
		if (job.request.options) out.options = { ...options, direction };
		if (job.request.filters) out.filters = job.request.filters;
		if (this.echoSecrets && job.request.SAT) out.SAT = job.request.SAT;
		if (job.status === 'COMPLETED' && this.listDocuments) out.documents = job.documents;
		if (job.status === 'FAILED') out.error = job.error;
		return out;
	}

	/**
	 * Counts a hit in a window; answers 429 when over.
	 * @returns {SimResponse | undefined}
	 */
	limit(bucket, max, windowMs) {
		const now = Date.now();
		const list = (this.hits.get(bucket) ?? []).filter((t) => t > now - windowMs);
		if (list.length >= max) {
			this.hits.set(bucket, list);
			const retryAfter = Math.max(1, Math.ceil((list[0] + windowMs - now) / 1000));
			return err(
				429,
				'RATE_LIMIT_EXCEEDED',
				`Rate limit exceeded: ${max} per ${windowMs / 1000} s`,
				{ 'retry-after': String(retryAfter) },
			);
		}
		list.push(now);
		this.hits.set(bucket, list);
		return undefined;
	}

	/** @returns {ApiKey | SimResponse} */
	authenticate(req, env) {
		if (env !== 'prod' && env !== 'staging') return err(404, 'NOT_FOUND', `No environment ${env}`);
		const bearer = /^Bearer (.+)$/.exec(String(req.headers.authorization ?? ''));
		const header = req.headers['x-api-key'];
		/** @type {string | undefined} */
		let presented;
		if (bearer && this.acceptedSchemes.includes('bearer')) presented = bearer[1];
		else if (typeof header === 'string' && header && this.acceptedSchemes.includes('x-api-key'))
			presented = header;
		if (!presented) return err(401, 'UNAUTHORIZED', 'Missing API key');
		const key = this.keys.get(presented);
		if (!key || key.env !== env) return err(401, 'INVALID_API_KEY', 'Invalid or expired API key');
		const plan = this.limit(`plan:${key.key}`, key.requestsPerHour, 3_600_000);
		return plan ?? key;
	}

	/** @returns {number} */
	remaining(key) {
		const list = (this.hits.get(`plan:${key.key}`) ?? []).filter((t) => t > Date.now() - 3_600_000);
		return Math.max(0, key.requestsPerHour - list.length);
	}

	register(r) {
		const guarded = (permission, handler) => (req) => {
			const key = this.authenticate(req, req.params.env);
			if (!('key' in key)) return key;
			// Deliberately generic: the node names the missing permission from the verify result.
			if (permission && !key.permissions.includes(permission))
				return err(403, 'FORBIDDEN', 'Insufficient permissions');
			return handler(req, key, /** @type {Env} */ (req.params.env));
		};

		r.add(
			'GET',
			'/:env/v1/auth/verify',
			guarded(undefined, (_req, key) => ({
				status: 200,
				body: {
					valid: true,
					organization: key.organization,
					permissions: key.permissions,
					rateLimit: {
						plan: key.plan,
						requestsPerHour: key.requestsPerHour,
						remaining: this.remaining(key),
					},
				},
			})),
		);

		r.add(
			'POST',
			'/:env/v1/extractions',
			guarded('extractions:create', (req, key, env) => {
				const limited = this.limit(`create:${key.key}`, this.limits.creationsPerHour, 3_600_000);
				if (limited) return limited;
				const b = /** @type {Record<string, unknown>} */ (req.body ?? {});
				const sat = /** @type {Record<string, unknown> | undefined} */ (b.SAT);
				const options = /** @type {Record<string, unknown>} */ (b.options ?? {});
				const period = /** @type {Record<string, unknown>} */ (options.period ?? {});
				/** @type {string[]} */
				const problems = [];
				if (!sat || typeof sat.rfc !== 'string' || !sat.rfc) problems.push('SAT.rfc is required');
				if (!sat || (typeof sat.password !== 'string' && typeof sat.privateKey !== 'string'))
					problems.push('SAT credentials are required');
				if (!['INVOICE', 'TAX_STATUS', 'TAX_RETENTION'].includes(String(options.informationType)))
					problems.push('options.informationType is invalid');
				if (
					!/^\d{4}-\d{2}-\d{2}$/.test(String(period.from)) ||
					!/^\d{4}-\d{2}-\d{2}$/.test(String(period.to))
				)
					problems.push('options.period must have from and to dates');
				if (
					options.direction !== undefined &&
					!['INBOUND', 'OUTBOUND'].includes(String(options.direction))
				)
					problems.push('options.direction is invalid');
				if (problems.length) {
					const echoed = this.echoSecrets && sat ? ` (received ${JSON.stringify(sat)})` : '';
					return {
						status: 400,
						body: {
							error: {
								code: 'VALIDATION_ERROR',
								message: `${problems.join('; ')}${echoed}`,
								details: problems,
							},
						},
					};
				}
				const schedule = this.nextJobs.shift() ?? this.defaultSchedule;
				const job = this.newJob(env, key.key, b, { ...schedule });
				if (schedule.checks < 0) this.finish(job, schedule.outcome);
				return { status: 201, body: this.record(job) };
			}),
		);

		r.add(
			'GET',
			'/:env/v1/extractions/:publicId',
			guarded('extractions:read', (req, key, env) => {
				const limited = this.limit(`status:${key.key}`, this.limits.statusChecksPerMinute, 60_000);
				if (limited) return limited;
				const job = this.jobs.get(req.params.publicId);
				if (
					!job ||
					job.env !== env ||
					Date.now() - Date.parse(job.createdAt) < this.jobVisibleAfterMs
				) {
					return err(404, 'NOT_FOUND', `Extraction ${req.params.publicId} not found`);
				}
				this.step(job);
				return { status: 200, body: this.record(job) };
			}),
		);

		r.add(
			'GET',
			'/:env/v1/extractions/:publicId/documents/:documentId/download',
			guarded('documents:download', (req, key, env) => {
				const limited = this.limit(`download:${key.key}`, this.limits.downloadsPerHour, 3_600_000);
				if (limited) return limited;
				const job = this.jobs.get(req.params.publicId);
				if (!job || job.env !== env)
					return err(404, 'NOT_FOUND', `Extraction ${req.params.publicId} not found`);
				const doc = job.documents.find((d) => d.id === req.params.documentId);
				if (!doc) return err(404, 'NOT_FOUND', `Document ${req.params.documentId} not found`);
				const type = String(req.query.type ?? 'XML').toUpperCase();
				if (type !== 'XML' && type !== 'PDF')
					return err(400, 'VALIDATION_ERROR', 'type must be XML or PDF');
				if (!doc.availableFormats.includes(type))
					return err(404, 'NOT_FOUND', `Document ${doc.id} has no ${type}`);
				return {
					status: 200,
					raw: this.content(doc, type),
					headers: {
						'content-type': type === 'XML' ? 'application/xml' : 'application/pdf',
						'content-disposition': `attachment; filename="${doc.uuid}.${type.toLowerCase()}"`,
					},
				};
			}),
		);
	}

	/**
	 * Delivers a signed webhook as the service does: envelope `{ event: { type, timestamp, version: '1.0' }, data }`,
	 * headers `X-Svc-Timestamp` (Unix seconds) and `X-Svc-Signature: sha256=<hex>` of
	 * HMAC-SHA256(secret, `${timestamp}.${rawBody}`). `tamper`: 'body' changes the body after signing,
	 * 'signature' sends a wrong signature, true means 'body'. `timestamp` (Unix seconds) lets a test send
	 * an old delivery; `eventTimestamp` fixes `event.timestamp` (the idempotency key) to test duplicates.
	 * @returns {Promise<{ status: number; text: string; rawBody: string; signature: string; timestamp: number }>}
	 */
	async deliver(eventType, data, opts) {
		const timestamp = opts.timestamp ?? Math.floor(Date.now() / 1000);
		const envelope = {
			event: {
				type: eventType,
				timestamp: opts.eventTimestamp ?? new Date().toISOString(),
				version: '1.0',
			},
			data,
		};
		const rawBody = JSON.stringify(envelope);
		let signature = `sha256=${createHmac('sha256', opts.secret).update(`${timestamp}.${rawBody}`).digest('hex')}`;
		let sent = rawBody;
		const tamper = opts.tamper === true ? 'body' : opts.tamper;
		if (tamper === 'body')
			sent = rawBody.replace('"version":"1.0"', '"version":"1.0","injected":true');
		if (tamper === 'signature') signature = `sha256=${'0'.repeat(64)}`;
		const response = await fetch(opts.url, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				'x-svc-signature': signature,
				'x-svc-timestamp': String(timestamp),
				...(opts.headers ?? {}),
			},
			body: sent,
		});
		return {
			status: response.status,
			text: await response.text(),
			rawBody: sent,
			signature,
			timestamp,
		};
	}

	/**
	 * `data` of an extraction.completed delivery for a job, as the spec's samples show it (beta names).
	 * @returns {Record<string, unknown>}
	 */
	completedEventData(job) {
		const options = /** @type {Record<string, unknown>} */ (job.request.options ?? {});
		const bytes = job.documents.reduce((n, d) => n + this.content(d, 'XML').length, 0);
		return {
			extractionId: job.publicId,
			status: 'COMPLETED',
			completedAt: new Date().toISOString(),
			summary: {
				totalDocuments: job.documents.length,
				successfulDownloads: job.documents.length,
				failedDownloads: 0,
				totalSizeBytes: bytes,
			},
			subject: {
				identification: String(
					/** @type {Record<string, unknown> | undefined} */ (job.request.SAT)?.rfc ??
						'EKU9003173C9',
				),
				fullName: 'Contribuyente Ejemplo',
				personType: 'MORAL',
			},
			options: {
				informationType: options.informationType ?? 'INVOICE',
				period: options.period ?? { from: '2026-10-01', to: '2026-10-31' },
				direction: options.direction === 'OUTBOUND' ? 'ISSUED' : 'RECEIVED',
			},
		};
	}

	/**
	 * `data` of an extraction.failed delivery.
	 * @returns {Record<string, unknown>}
	 */
	failedEventData(job) {
		const options = /** @type {Record<string, unknown>} */ (job.request.options ?? {});
		return {
			extractionId: job.publicId,
			status: 'FAILED',
			failedAt: new Date().toISOString(),
			error: job.error ?? {
				code: 'INVALID_CREDENTIALS',
				message: 'SAT rejected the credentials',
				details: { satResponse: 'RFC o contraseña incorrectos' },
			},
			subject: {
				identification: String(
					/** @type {Record<string, unknown> | undefined} */ (job.request.SAT)?.rfc ??
						'EKU9003173C9',
				),
			},
			options: {
				informationType: options.informationType ?? 'INVOICE',
				period: options.period ?? { from: '2026-10-01', to: '2026-10-31' },
			},
		};
	}

	/**
	 * `data` of a document.ready delivery.
	 * @returns {Record<string, unknown>}
	 */
	documentReadyEventData(job, doc) {
		return { extractionId: job.publicId, document: { ...doc } };
	}
}
