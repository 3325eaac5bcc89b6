// A webhook receiver that checks X-Webhook-Signature, with the Go standard library alone.
//
//	WEBHOOK_SECRET=... PORT=4000 go run main.go
//
// Answers 204 to a correctly signed POST and prints the event; 401 otherwise.
package main

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
)

// signatureIsValid: lowercase hex HMAC-SHA256 of the raw body, compared in constant time.
func signatureIsValid(secret, rawBody []byte, header string) bool {
	mac := hmac.New(sha256.New, secret)
	mac.Write(rawBody)
	expected := hex.EncodeToString(mac.Sum(nil))
	return hmac.Equal([]byte(expected), []byte(header))
}

func main() {
	secret := []byte(os.Getenv("WEBHOOK_SECRET"))
	if len(secret) == 0 {
		log.Fatal("Set WEBHOOK_SECRET to the webhook secret.")
	}
	port := os.Getenv("PORT")
	if port == "" {
		port = "4000"
	}

	http.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		// Check the bytes as received, before parsing: re-serialised JSON would not match.
		rawBody, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil || r.Method != http.MethodPost || !signatureIsValid(secret, rawBody, r.Header.Get("X-Webhook-Signature")) {
			fmt.Printf("refused: %s %s (bad or missing signature)\n", r.Method, r.URL.Path)
			w.WriteHeader(http.StatusUnauthorized)
			return
		}
		var event struct {
			Event string `json:"event"`
			ID    string `json:"id"`
		}
		if err := json.Unmarshal(rawBody, &event); err != nil {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		// Retries and resends carry the same event id: handle each id once.
		fmt.Printf("verified %s %s delivery=%s\n%s\n", event.Event, event.ID, r.Header.Get("X-Service-Delivery-Id"), rawBody)
		w.WriteHeader(http.StatusNoContent)
	})

	fmt.Printf("listening on http://127.0.0.1:%s/\n", port)
	log.Fatal(http.ListenAndServe("127.0.0.1:"+port, nil))
}
