// A queue worker on redigo (github.com/gomodule/redigo/redis 1.8.3, Debian
// golang-github-gomodule-redigo-dev): BLPOP from list "jobs", retrying the connection every second.
//
// Connects with redis.DialURL(URL, redis.DialConnectTimeout(2s)) (no read timeout: redigo's
// default), then PING; on any dial or command error the connection is closed and a new one dialled
// after 1 s. Logs with Go's standard "log" package at its default flags (stderr,
// "2006/01/02 15:04:05 message"): no levels, errors as "...: %v" (no stack: Go errors have none).
// The schema-skew drop (a payload starting with "{" without "job_id") logs nothing on purpose.
// Built in GOPATH mode against the Debian source (GO111MODULE=off GOPATH=/usr/share/gocode),
// see clients-go-celery.sh.
package main

import (
	"encoding/json"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/gomodule/redigo/redis"
)

func env(k, d string) string {
	if v := os.Getenv(k); v != "" {
		return v
	}
	return d
}

func envInt(k string, d int) int {
	n, err := strconv.Atoi(env(k, strconv.Itoa(d)))
	if err != nil {
		log.Fatalf("bad %s: %v", k, err)
	}
	return n
}

// handle runs one job; it returns true when the job was processed.
func handle(payload, resultDir string, jobDur time.Duration) bool {
	log.Printf("job %s received", payload)
	time.Sleep(jobDur)
	id := payload
	if strings.HasPrefix(payload, "{") {
		var job struct {
			JobID *string `json:"job_id"`
		}
		if err := json.Unmarshal([]byte(payload), &job); err != nil || job.JobID == nil {
			return false // the schema-skew bug: the error is swallowed, the job dropped without a line
		}
		id = *job.JobID
	}
	if resultDir != "" {
		if err := os.WriteFile(filepath.Join(resultDir, id+".done"), nil, 0o644); err != nil {
			log.Printf("job %s failed: %v", payload, err)
			return false
		}
	}
	log.Printf("job %s processed", payload)
	return true
}

func main() {
	url := env("URL", "redis://redis:6379/0")
	deadline := time.Now().Add(time.Duration(envInt("DEADLINE_S", 10)) * time.Second)
	maxJobs := envInt("JOBS", 12)
	jobDur := time.Duration(envInt("JOB_MS", 50)) * time.Millisecond
	resultDir := os.Getenv("RESULT_DIR")

	log.Printf("worker starting, redis url %s", url)
	failures, done := 0, 0 // failures since the last "connected to"
	for time.Now().Before(deadline) && done < maxJobs {
		err := func() error {
			conn, err := redis.DialURL(url, redis.DialConnectTimeout(2*time.Second))
			if err != nil {
				return err
			}
			defer conn.Close()
			if _, err := conn.Do("PING"); err != nil {
				return err
			}
			log.Printf("connected to %s", url)
			failures = 0
			for time.Now().Before(deadline) && done < maxJobs {
				item, err := redis.Strings(conn.Do("BLPOP", "jobs", 1))
				if err == redis.ErrNil {
					continue // BLPOP timed out: no job within 1 s
				}
				if err != nil {
					return err
				}
				if len(item) != 2 {
					return fmt.Errorf("unexpected BLPOP reply %q", item)
				}
				if handle(item[1], resultDir, jobDur) {
					done++
				}
			}
			return nil
		}()
		if err != nil {
			failures++
			log.Printf("attempt %d failed, retrying in 1s: %v", failures, err)
			time.Sleep(time.Second)
		}
	}
	log.Printf("worker stopping after %d jobs", done)
}
