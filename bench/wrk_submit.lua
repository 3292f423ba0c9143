-- wrk script: POST /v1/jobs with a small valid battle job (bench/api.sh).
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = '{"kind":"battle","seed":1,"params":{"games":1,' ..
  '"attacker":{"commander":"Test Commander","deck":[{"card":"Grunt","count":5}]},' ..
  '"defender":{"commander":"Test Commander","deck":[{"card":"Brute","count":4}]}}}'

local bad = 0
response = function(status, headers, body)
  if status ~= 202 then bad = bad + 1 end
end

done = function(summary, latency, requests)
  io.write(string.format("non-202 responses: %d\n", bad))
end
