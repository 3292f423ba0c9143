-- wrk script: GET /v1/jobs/{id} of one existing job (bench/api.sh passes the path).
-- SKIRMISH_KEY (a live stack with keys on) goes with every request.
if os.getenv("SKIRMISH_KEY") then wrk.headers["Authorization"] = "Bearer " .. os.getenv("SKIRMISH_KEY") end
local bad = 0
response = function(status, headers, body)
  if status ~= 200 then bad = bad + 1 end
end

done = function(summary, latency, requests)
  io.write(string.format("non-200 responses: %d\n", bad))
end
