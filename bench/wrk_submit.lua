-- wrk script: POST /v1/jobs with a small valid battle job (bench/api.sh).
-- SKIRMISH_KEY (a live stack with keys on) goes with every request.
if os.getenv("SKIRMISH_KEY") then wrk.headers["Authorization"] = "Bearer " .. os.getenv("SKIRMISH_KEY") end
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"kind":"battle","seed":1,"params":{"games":1,' ..
  '"attacker":{"commander":"Test Commander","deck":[{"card":"Grunt","count":5}]},' ..
  '"defender":{"commander":"Test Commander","deck":[{"card":"Brute","count":4}]}}}'

-- Each thread appends the ids of its jobs to $SK_BENCH_IDS.<n>, so that bench/api.sh can
-- cancel them on a live stack afterwards.
local counter = 0
setup = function(thread)
  counter = counter + 1
  thread:set("n", counter)
end

local bad = 0
local out = nil
init = function(args)
  local path = os.getenv("SK_BENCH_IDS")
  if path then out = io.open(path .. "." .. n, "w") end
end

response = function(status, headers, body)
  if status ~= 202 then bad = bad + 1 end
  if out then
    local id = body:match('"id"%s*:%s*"([0-9a-f-]+)"')
    if id then out:write(id, "\n") end
  end
end

done = function(summary, latency, requests)
  io.write(string.format("non-202 responses: %d\n", bad))
end
