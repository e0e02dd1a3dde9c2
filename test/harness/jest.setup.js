// n8n's logger prints every node error to the console; the tests assert on errors instead.
process.env.N8N_LOG_LEVEL = 'silent';
